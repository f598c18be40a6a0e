// Entities written before the full-text indexes held text keys, a batch at a time
// (graphrag/stores/entity_schema.py keys them once).
// Parameters: $limit (max entities).
MATCH (e:Entity)
WHERE e.text_key IS NULL AND NOT e:Missing
RETURN e.id AS id
LIMIT $limit
