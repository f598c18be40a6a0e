// Lists the ids, titles and aliases of entities outside some packs, to resolve links that cross packs.
// Parameters: $packs (list of pack ids being ingested).
MATCH (e:Entity)
WHERE NOT e:Missing AND NOT e.pack IN $packs
RETURN e.id AS id, e.title AS title, e.aliases AS aliases
