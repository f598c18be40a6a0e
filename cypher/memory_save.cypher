// Saves memory records of one workspace: creates (or re-activates) its project and workspace, the records, and
// their DERIVED_FROM links to the records they summarise (those must already be in the same workspace).
// The save tool passes one record; the memory benchmark seeds thousands per transaction with the same query.
// Parameters: $project (project id), $project_active (the operator's flag for the project),
// $workspace (workspace name), $records (maps of every stored record property, `id` and `derived_from` included).
MERGE (p:Project {id: $project})
SET p.active = $project_active
MERGE (w:Workspace {project: $project, name: $workspace})
ON CREATE SET w.created_at = $records[0].created_at
SET w.active = true
MERGE (p)-[:OWNS]->(w)
WITH w
UNWIND $records AS record
CREATE (r:MemoryRecord)
SET r = record
CREATE (w)-[:HOLDS]->(r)
WITH r, record
UNWIND record.derived_from AS source_id
MATCH (source:MemoryRecord {id: source_id, project: $project, workspace: $workspace})
CREATE (r)-[:DERIVED_FROM]->(source)
