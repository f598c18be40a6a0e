// Records which embedding model made the vectors of packs a run re-embedded from the graph (see
// ingest_vector_sources), so their next ingest does not embed them again.
// Parameters: $packs (pack ids), $embedder (the model's id).
MATCH (p:Pack)
WHERE p.id IN $packs
SET p.embedder = $embedder
