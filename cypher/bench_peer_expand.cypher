// The peer benchmark: what a neo4j-graphrag HybridCypherRetriever's retrieval query gives each hybrid hit:
// the hit and its neighbours one and two steps away among the peer's documents (any relation, either
// direction), the nearest to the question first, at most $shown of each; the hits in their order.
// Parameters: $ids (the hybrid hits' ids, best first), $query_vector (the question's embedding), $shown.
UNWIND range(0, size($ids) - 1) AS rank
MATCH (node:BenchPeer {id: $ids[rank]})
CALL (node) {
  MATCH (node)--(one:BenchPeer)
  WHERE one <> node
  WITH DISTINCT one
  ORDER BY vector.similarity.cosine(one.peer_embedding, $query_vector) DESC
  RETURN collect(one.id)[..$shown] AS ones
}
CALL (node, ones) {
  MATCH (node)--(:BenchPeer)--(two:BenchPeer)
  WHERE two <> node AND NOT two.id IN ones
  WITH DISTINCT two
  ORDER BY vector.similarity.cosine(two.peer_embedding, $query_vector) DESC
  RETURN collect(two.id)[..$shown] AS twos
}
RETURN node.id AS id, ones, twos
ORDER BY rank
