// Sets the long-piece marker of memory records saved before it existed (graphrag/memory/schema.py).
// Parameters: $rows (maps of id and text_pieces).
UNWIND $rows AS row
MATCH (r:MemoryRecord {id: row.id})
SET r.text_pieces = row.text_pieces
