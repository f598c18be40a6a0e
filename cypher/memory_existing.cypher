// Which of the given record ids exist in a workspace (checks `derived_from` before a save).
// Parameters: $project (project id), $workspace (workspace name), $ids (record ids).
MATCH (r:MemoryRecord {project: $project, workspace: $workspace})
WHERE r.id IN $ids
RETURN r.id AS id
