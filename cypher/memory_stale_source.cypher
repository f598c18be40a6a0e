// Marks or clears 'source_changed' on the records of one source, given its current hash: validate_memory's
// persistent result. Marks for other reasons are left alone.
// Parameters: $project (project id), $workspace (workspace name), $source_id (source id), $current_source_hash.
MATCH (r:MemoryRecord {project: $project, workspace: $workspace, source_id: $source_id})
WHERE r.source_hash IS NOT NULL
WITH r, r.source_hash <> $current_source_hash AS drifted
SET r.stale_mark = CASE
  WHEN drifted AND r.stale_mark IS NULL THEN 'source_changed'
  WHEN NOT drifted AND r.stale_mark = 'source_changed' THEN null
  ELSE r.stale_mark END
