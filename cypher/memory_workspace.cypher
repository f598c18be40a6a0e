// Says whether a project may use a workspace: its own workspace of that name (and whether it is active),
// and whether other projects hold a workspace of that name (a reader of another project's workspace is refused).
// Parameters: $project (the caller's project id), $workspace (workspace name).
OPTIONAL MATCH (own:Workspace {project: $project, name: $workspace})
RETURN own IS NOT NULL AS exists,
       coalesce(own.active, false) AS active,
       EXISTS { MATCH (other:Workspace {name: $workspace}) WHERE other.project <> $project } AS foreign
