// The neighbourhood of an entity: every entity within N hops (its depth is the shortest distance),
// nearest first, cut at a node limit, and the typed links among the entities kept.
// A hop may follow a link forwards (types in $forward) or backwards (types in $backward).
// The hop bound `{1,2}` is a literal: the service replaces the 2 with the requested depth (1..4).
// Parameters: $id (start entity id), $forward, $backward (relationship types per direction),
// $types (relationship types of the links listed among kept entities), $limit (entities besides the start),
// $hidden (pack ids the caller may not see: their entities are neither listed nor walked through).
MATCH (s:Entity {id: $id})
WHERE NOT coalesce(s.pack, '') IN $hidden
OPTIONAL MATCH p = ANY SHORTEST (s) ((a:Entity)-[r]-(b:Entity)
    WHERE ((startNode(r) = a AND type(r) IN $forward) OR (endNode(r) = a AND type(r) IN $backward))
          AND NOT coalesce(b.pack, '') IN $hidden){1,2} (n:Entity)
WHERE n <> s
WITH s, n, length(p) AS depth
ORDER BY depth, n.id
WITH s, [f IN collect({node: n, depth: depth}) WHERE f.node IS NOT NULL] AS found
WITH size(found) AS reachable, [{node: s, depth: 0}] + found[..$limit] AS kept
WITH reachable, kept, [k IN kept | k.node] AS members
CALL (members) {
  UNWIND members AS x
  MATCH (x)-[r]->(y:Entity)
  WHERE type(r) IN $types AND y IN members
  WITH x, r, y
  ORDER BY x.id, type(r), y.id
  RETURN collect({source: x.id, type: type(r), target: y.id, weight: r.weight}) AS edges
}
RETURN reachable, edges,
       [k IN kept | {id: k.node.id, kind: k.node.kind, title: k.node.title, depth: k.depth,
                     missing: k.node:Missing}] AS nodes
