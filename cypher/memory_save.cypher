// Saves one memory record: creates (or re-activates) its project and workspace, the record, and its
// DERIVED_FROM links to the records it summarises (those must already be in the same workspace).
// Parameters: $project (project id), $project_active (the operator's flag for the project),
// $workspace (workspace name), $record (map of every stored record property, `id` and `derived_from` included).
MERGE (p:Project {id: $project})
SET p.active = $project_active
MERGE (w:Workspace {project: $project, name: $workspace})
ON CREATE SET w.created_at = $record.created_at
SET w.active = true
MERGE (p)-[:OWNS]->(w)
CREATE (r:MemoryRecord)
SET r = $record
CREATE (w)-[:HOLDS]->(r)
WITH r
UNWIND $record.derived_from AS source_id
MATCH (source:MemoryRecord {id: source_id, project: $project, workspace: $workspace})
CREATE (r)-[:DERIVED_FROM]->(source)
