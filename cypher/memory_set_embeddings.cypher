// Stores record embeddings and the embedder that made them (the archivist re-embeds after a model change).
// Parameters: $rows (list of {id, embedding}), $model (embedder id).
UNWIND $rows AS row
MATCH (r:MemoryRecord {id: row.id})
SET r.embedding = row.embedding, r.embedding_model = $model
