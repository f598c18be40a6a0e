// The scope labels the records of one workspace carry (a scope filter is checked against them).
// Parameters: $project (project id), $workspace (workspace name).
MATCH (r:MemoryRecord {project: $project, workspace: $workspace})
RETURN DISTINCT r.scope AS scope
ORDER BY scope
