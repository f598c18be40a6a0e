// The names of a project's active workspaces (to name the nearest when a caller asks for one it does not have).
// Parameters: $project (the caller's project id).
MATCH (w:Workspace {project: $project})
WHERE coalesce(w.active, false)
RETURN w.name AS name
ORDER BY name
