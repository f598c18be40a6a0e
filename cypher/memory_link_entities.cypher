// Links memory records to the pack entity their source_id names: an entity with that id, else the
// entities with that pack-relative path. Old links of those records are replaced.
// Given ids, the records are found by their unique id (a save then costs the same in a workspace of any size);
// with null, every record of the workspace.
// Parameters: $project (project id), $workspace (workspace name), $ids (record ids, or null for the whole workspace).
CALL () {
  WITH 1 AS go WHERE $ids IS NOT NULL
  UNWIND $ids AS id
  MATCH (r:MemoryRecord {id: id})
  WHERE r.project = $project AND r.workspace = $workspace
  RETURN r
  UNION
  WITH 1 AS go WHERE $ids IS NULL
  MATCH (r:MemoryRecord {project: $project, workspace: $workspace})
  RETURN r
}
OPTIONAL MATCH (r)-[old:ABOUT]->(:Entity)
DELETE old
WITH DISTINCT r
WHERE r.source_id IS NOT NULL
CALL (r) {
  OPTIONAL MATCH (by_id:Entity {id: r.source_id})
  OPTIONAL MATCH (by_path:Entity {path: r.source_id})
  WITH collect(DISTINCT by_id) AS by_id, collect(DISTINCT by_path) AS by_path
  UNWIND CASE WHEN size(by_id) > 0 THEN by_id ELSE by_path END AS e
  MERGE (r)-[:ABOUT]->(e)
}
