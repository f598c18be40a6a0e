// One step of a relation path: from each frontier entity along one relationship type, forwards
// (the direction it was declared in) or backwards.
// Parameters: $ids (frontier entity ids), $type (relationship type), $forward (true: follow the declared direction).
UNWIND $ids AS id
MATCH (a:Entity {id: id})-[r]-(b:Entity)
WHERE type(r) = $type AND (startNode(r) = a) = $forward
RETURN a.id AS source, b.id AS target, r.weight AS weight
ORDER BY source, target
