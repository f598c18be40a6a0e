// One step of a relation path: from each frontier entity along one relationship type, forwards
// (the direction it was declared in) or backwards.
// Parameters: $ids (frontier entity ids), $type (relationship type), $forward (true: follow the declared direction),
// $hidden (pack ids the caller may not see: never reached).
UNWIND $ids AS id
MATCH (a:Entity {id: id})-[r]-(b:Entity)
WHERE type(r) = $type AND (startNode(r) = a) = $forward AND NOT coalesce(b.pack, '') IN $hidden
RETURN a.id AS source, b.id AS target, r.weight AS weight
ORDER BY source, target
