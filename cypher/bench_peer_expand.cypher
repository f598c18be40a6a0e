// The peer benchmark: neo4j-graphrag's HybridCypherRetriever appends this to its hybrid search, which yields
// each hit as node and score. It returns the hit and its neighbours one and two steps away among the peer's
// documents (any relation, either direction), the nearest to the question first, at most $shown of each.
// Parameters: $query_vector (the package's own), $shown.
WITH node, score
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
RETURN node.id AS id, score, ones, twos
