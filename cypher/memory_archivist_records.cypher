// Reads what the archivist needs about the records of one workspace: fact keys, age, source hashes, the
// hashes of the pack entities the records are ABOUT, and the stored embeddings (with the model that made them).
// Parameters: $project (project id), $workspace (workspace name), $ids (record ids, or null for all),
// $fact_key (only the versions of this fact key, or null for all).
MATCH (r:MemoryRecord {project: $project, workspace: $workspace})
WHERE ($ids IS NULL OR r.id IN $ids) AND ($fact_key IS NULL OR r.fact_key = $fact_key)
OPTIONAL MATCH (r)-[:ABOUT]->(e:Entity)
WITH r, [h IN collect(e.sha256) WHERE h IS NOT NULL] AS entity_hashes
RETURN r.id AS id, r.fact_key AS fact_key, r.content AS content, r.created_at AS created_at,
       r.source_hash AS source_hash, r.stale_mark AS stale_mark, entity_hashes,
       r.embedding_model AS embedding_model, r.embedding AS embedding
ORDER BY r.created_at, r.id
