// The peer benchmark: drops its two indexes.
// Parameters: none.
DROP INDEX bench_peer_vectors IF EXISTS;
DROP INDEX bench_peer_text IF EXISTS;
