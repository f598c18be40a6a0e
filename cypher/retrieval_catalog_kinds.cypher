// What the packs hold, for agents (pack_catalog) and for checking filters: each pack with its title, how
// many entities of each kind it defines (placeholders, which no file defines, are not counted) and what its
// author says its relations mean (JSON {name: description}, or null before the ingest recorded them).
// Parameters: $hidden (pack ids the caller may not see: left out).
MATCH (p:Pack)
WHERE NOT p.id IN $hidden
OPTIONAL MATCH (e:Entity {pack: p.id})
WHERE NOT e:Missing
WITH p, e.kind AS kind, count(e) AS entities
ORDER BY p.id, entities DESC, kind
RETURN p.id AS pack, p.title AS title, collect({kind: kind, entities: entities}) AS kinds,
       p.relation_descriptions AS descriptions
ORDER BY pack
