// The memory records about an entity: what agents saved with $id (or its file) as their source, with their
// project, workspace and status, newest first.
// Parameters: $id (an entity id).
MATCH (record:MemoryRecord)-[:ABOUT]->(:Entity {id: $id})
RETURN record.project AS project, record.workspace AS workspace, record.status AS status,
       record.updated_at AS updated, record.content AS content, record.id AS record
ORDER BY updated DESC
