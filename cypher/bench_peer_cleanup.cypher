// The peer benchmark: takes the peer's label and embeddings off every entity (its indexes are dropped apart).
// Parameters: none.
MATCH (e:BenchPeer)
CALL (e) {
  REMOVE e:BenchPeer, e.peer_embedding
} IN TRANSACTIONS OF 5000 ROWS
