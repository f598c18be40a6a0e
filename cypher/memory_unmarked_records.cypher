// Memory records saved before text_pieces existed (the full-text index's long-piece marker), a batch at a time,
// with the texts it is computed from (graphrag/memory/schema.py marks them once).
// Parameters: $limit (max records).
MATCH (r:MemoryRecord)
WHERE r.text_pieces IS NULL
RETURN r.id AS id, coalesce(r.match_text, '') AS match_text, coalesce(r.fact_text, '') AS fact_text
LIMIT $limit
