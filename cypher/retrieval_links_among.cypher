// The typed links among some entities (a neighbourhood's members), each once, in a stable order.
// Parameters: $ids (entity ids), $types (relationship types listed).
WITH $ids AS members
UNWIND members AS id
MATCH (x:Entity {id: id})-[r]->(y:Entity)
WHERE type(r) IN $types AND y.id IN members
WITH x, r, y
ORDER BY x.id, type(r), y.id
RETURN x.id AS source, type(r) AS type, y.id AS target, r.weight AS weight
