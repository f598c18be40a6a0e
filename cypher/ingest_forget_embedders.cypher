// Marks every pack's vectors as stale once the vector collection was rebuilt (gone, or made by another
// embedding model): the run then makes its own packs' vectors and the others' again, and records their
// embedder once their vectors are made, so a pack left stale by a run that stopped is embedded whole at its
// next ingest.
// Parameters: none.
MATCH (p:Pack)
SET p.embedder = null
