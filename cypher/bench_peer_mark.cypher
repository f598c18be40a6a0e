// The peer benchmark: labels one batch of a pack's entities as the peer's documents, with their embeddings.
// Parameters: $rows (list of {id, vector}).
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
SET e:BenchPeer, e.peer_embedding = row.vector
