// Every typed link between entities (source id, relationship type, target id): the edges of the graph walk.
// Parameters: $types (the relationship types of the packs' relation vocabulary).
MATCH (a:Entity)-[r]->(b:Entity)
WHERE type(r) IN $types
RETURN a.id AS source, type(r) AS type, b.id AS target
