// Records the stamp of each file read at rest on the entity it holds, when the entity is of that file's
// content, with the file's problems (JSON): a later ingest takes a file whose stamp is unchanged as stored
// without reading it, and reports its problems again until the file is fixed.
// Parameters: $rows (list of {id, pack, path, sha256, stamp, problems}).
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
WHERE e.pack = row.pack AND e.path = row.path AND e.sha256 = row.sha256 AND NOT e:Missing
SET e.file_stamp = row.stamp, e.file_problems = row.problems
