// Marks every pack's vectors as stale after the vector collection was rebuilt for a new embedding model,
// so the next ingest of each pack embeds all its entities again.
// Parameters: none.
MATCH (p:Pack)
SET p.embedder = null
