// Selects memory records of one workspace with score, status and graph relations: the one query behind
// search, saving (the record just saved) and validate_memory (all records of a source).
// score = how many of $words occur in the record's normalised content and source (plus its fact key when
// $with_fact_key); with no words every record matches with score 0. Order: score, then last change, then id.
// status: 'conflict' when the record or a record it derives from (DERIVED_FROM, up to 3 levels) has a
// neighbour with the same fact_key in the workspace but other content or source hash; else 'stale' when one
// of them is marked stale by the archivist or its source_hash differs from $current_source_hash; else 'unverified'.
// graph_relations: the $max_relations strongest RELATES_TO / FIXES_ISSUE / SUPERSEDES links (ties by the other
// record's id), with the other record's first 240 UTF-16 units (the caller cuts the 120-character preview).
// Parameters: $project (project id), $workspace (workspace name), $ids (record ids or null), $source_id
// (source id or null), $scope (scope label or null), $words (normalised query words), $with_fact_key (bool),
// $current_source_hash (string or null), $exclude_stale (bool), $limit (max records),
// $max_relations (max graph_relations per record).
MATCH (r:MemoryRecord {project: $project, workspace: $workspace})
WHERE ($ids IS NULL OR r.id IN $ids)
  AND ($source_id IS NULL OR r.source_id = $source_id)
  AND ($scope IS NULL OR r.scope = $scope)
WITH r, CASE WHEN $with_fact_key THEN r.match_text + '\n' + r.fact_text ELSE r.match_text END AS text
WITH r, size([word IN $words WHERE text CONTAINS word]) AS score
WHERE size($words) = 0 OR score > 0
WITH r, score
ORDER BY score DESC, r.updated_at DESC, r.id
CALL (r) {
  MATCH (r)-[:DERIVED_FROM*0..3]->(a:MemoryRecord)
  WITH DISTINCT a
  WITH a.fact_key IS NOT NULL AND EXISTS {
         MATCH (n:MemoryRecord {project: a.project, workspace: a.workspace, fact_key: a.fact_key})
         WHERE n.id <> a.id AND (n.content <> a.content OR coalesce(n.source_hash, '') <> coalesce(a.source_hash, ''))
       } AS conflict,
       a.stale_mark IS NOT NULL
         OR ($current_source_hash IS NOT NULL AND a.source_hash IS NOT NULL
             AND a.source_hash <> $current_source_hash) AS stale
  RETURN CASE WHEN any(c IN collect(conflict) WHERE c) THEN 'conflict'
              WHEN any(s IN collect(stale) WHERE s) THEN 'stale'
              ELSE 'unverified' END AS status
}
WITH r, score, status
WHERE NOT ($exclude_stale AND status = 'stale')
LIMIT $limit
CALL (r) {
  OPTIONAL MATCH (r)-[link:RELATES_TO|FIXES_ISSUE|SUPERSEDES]-(other:MemoryRecord)
  WITH link, other
  ORDER BY link.weight DESC, other.id
  LIMIT $max_relations
  RETURN collect(CASE WHEN link IS NOT NULL THEN {
    relation: toLower(type(link)),
    direction: CASE WHEN startNode(link) = r THEN 'outgoing' ELSE 'incoming' END,
    weight: link.weight,
    target_id: other.id,
    preview: left(other.content, 240)
  } END) AS graph_relations
}
RETURN r {.id, .workspace, .scope, .content, .source, .source_id, .source_hash, .source_revision, .fact_key,
          .confidence, .derived_from, .superseded_by, .created_at, .updated_at, .stale_mark} AS record,
       score, status, graph_relations
