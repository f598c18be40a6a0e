// Relation usage per pack: how many typed links of each relationship type the entities of each pack declare,
// and how many of them dangle.
// Parameters: none.
MATCH (p:Pack)-[:CONTAINS]->(source:Entity)-[link]->(target:Entity)
RETURN p.id AS pack, type(link) AS relation, count(*) AS links, count(CASE WHEN target:Missing THEN 1 END) AS dangling
ORDER BY pack, links DESC, relation
