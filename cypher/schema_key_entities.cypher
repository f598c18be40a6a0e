// Sets the text key of entities written before it existed (graphrag/stores/entity_schema.py).
// Parameters: $rows (maps of id and text_key).
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
SET e.text_key = row.text_key
