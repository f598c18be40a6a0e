// Deletes a workspace with all its records and their links (the benchmark cleans up after itself with it).
// Parameters: $project (project id), $workspace (workspace name).
MATCH (w:Workspace {project: $project, name: $workspace})
OPTIONAL MATCH (w)-[:HOLDS]->(r:MemoryRecord)
DETACH DELETE r, w
