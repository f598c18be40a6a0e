// The shortest typed paths between two entities, up to N hops, each hop forwards (types in $forward)
// or backwards (types in $backward); `target_found` says whether the target entity exists at all.
// The hop bound `{1,2}` is a literal: the service replaces the 2 with the requested depth (1..4).
// Parameters: $id (start entity id), $to (target entity id), $forward, $backward (relationship types
// per direction), $limit (most paths returned), $hidden (pack ids the caller may not see: never on a path).
MATCH (s:Entity {id: $id})
WHERE NOT coalesce(s.pack, '') IN $hidden
OPTIONAL MATCH (t:Entity {id: $to})
WHERE NOT coalesce(t.pack, '') IN $hidden
CALL (s, t) {
  MATCH p = ALL SHORTEST (s) ((a:Entity)-[r]-(b:Entity)
      WHERE ((startNode(r) = a AND type(r) IN $forward) OR (endNode(r) = a AND type(r) IN $backward))
            AND NOT coalesce(b.pack, '') IN $hidden){1,2} (t)
  WITH p
  LIMIT $limit
  RETURN collect({ids: [n IN nodes(p) | n.id],
                  hops: [i IN range(0, length(p) - 1) | {type: type(relationships(p)[i]),
                         forward: startNode(relationships(p)[i]) = nodes(p)[i],
                         weight: relationships(p)[i].weight}]}) AS paths
}
RETURN t IS NOT NULL AS target_found, paths
