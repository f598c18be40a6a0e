// Lists the entities outside some packs (id, pack, path, title, aliases): links that cross packs resolve
// to them, and an id one of them owns cannot be taken by a file of these packs.
// Parameters: $packs (list of pack ids being ingested).
MATCH (e:Entity)
WHERE NOT e:Missing AND NOT e.pack IN $packs
RETURN e.id AS id, e.pack AS pack, e.path AS path, e.title AS title, e.aliases AS aliases
