// The steps that do leave some entities: each relationship type and direction with a visible entity at its
// other end (what pack_graph names when a relation path reaches nothing). At most $cap steps.
// Parameters: $ids (entity ids), $hidden (pack ids the caller may not see), $cap (most steps returned).
UNWIND $ids AS id
MATCH (a:Entity {id: id})-[r]-(b:Entity)
WHERE NOT coalesce(b.pack, '') IN $hidden
WITH DISTINCT type(r) AS type, startNode(r) = a AS forward
ORDER BY type, forward DESC
LIMIT $cap
RETURN type, forward
