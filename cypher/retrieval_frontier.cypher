// One hop of a bounded neighbourhood walk: the entities one link away from a frontier that were not
// reached before, by id, at most $cap of them, and how many there were (pack_graph walks frontier by
// frontier, so a hub of 50,000 links costs one hop, never every path through it).
// A hop may follow a link forwards (types in $forward) or backwards (types in $backward).
// Parameters: $ids (frontier entity ids), $seen (ids reached before), $forward, $backward (relationship
// types per direction), $cap (most ids returned), $hidden (pack ids the caller may not see: never reached).
UNWIND $ids AS id
MATCH (a:Entity {id: id})-[r]-(b:Entity)
WHERE ((startNode(r) = a AND type(r) IN $forward) OR (endNode(r) = a AND type(r) IN $backward))
  AND NOT coalesce(b.pack, '') IN $hidden AND NOT b.id IN $seen
WITH DISTINCT b.id AS reached
ORDER BY reached
WITH collect(reached) AS found
RETURN size(found) AS reachable, found[..$cap] AS ids
