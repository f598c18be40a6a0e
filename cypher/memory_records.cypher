// Selects memory records of one workspace with score, status and graph relations: the one query behind
// search, saving (the record just saved) and validate_memory (all records of a source).
// score = how many of $words occur in the record's normalised content and source (plus its fact key when
// $with_fact_key); with no words every record matches with score 0. Order: score, then last change, then id.
// Words are \w+ runs (no line break), so a word occurs in content + '\n' + fact key iff it occurs in one of them.
// Candidates come from one of the branches of the first CALL (their conditions exclude each other), each
// reading no more than the answer can use: $ids by the unique id, $source_id by its index; with no words the
// newest $limit records in index order (all of them when $exclude_stale, which needs their status). With words,
// the newest records are read first (index order, at most 2000): when $limit of them hold every word, nothing
// can outrank them and the rest is never read (not when $exclude_stale, as a stale one may drop out: the
// workspace comes through an UNWIND of the check, since a plain WHERE on it was planned after the index seek,
// which then read every record anyway); else
// every record of the workspace is scored, and only the score groups that can reach the first $limit places
// (all when $exclude_stale) go on to be ordered, so the other matches never have their order keys read.
// Statuses and relations are then computed only for the rows kept (the LIMIT before the status is a no-op cap
// when $exclude_stale, and $limit otherwise).
// status: 'conflict' when the record or a record it derives from (DERIVED_FROM, up to 3 levels) has a
// neighbour with the same fact_key in the workspace but other content or source hash; else 'stale' when one
// of them is marked stale by the archivist or its source_hash differs from $current_source_hash; else 'unverified'.
// graph_relations: the $max_relations strongest RELATES_TO / FIXES_ISSUE / SUPERSEDES links (ties by the other
// record's id), with the other record's first 240 UTF-16 units (the caller cuts the 120-character preview).
// Parameters: $project (project id), $workspace (workspace name), $ids (record ids or null), $source_id
// (source id or null), $scope (scope label or null), $words (normalised query words), $with_fact_key (bool),
// $current_source_hash (string or null), $exclude_stale (bool), $limit (max records, at most 100000),
// $max_relations (max graph_relations per record), $team_prefix ('github:'), $team_repositories (null, or the
// owner/repo names the caller may read now: a record whose source_id names a file of another team repository,
// github:owner/repo/..., is left out, as is a relation preview of one).
CALL () {
  WITH 1 AS go WHERE $ids IS NOT NULL
  UNWIND $ids AS id
  MATCH (r:MemoryRecord {id: id})
  WHERE r.project = $project AND r.workspace = $workspace AND ($scope IS NULL OR r.scope = $scope)
  RETURN DISTINCT r, null AS score
  UNION
  WITH 1 AS go WHERE $ids IS NULL AND $source_id IS NOT NULL
  MATCH (r:MemoryRecord {project: $project, workspace: $workspace, source_id: $source_id})
  WHERE $scope IS NULL OR r.scope = $scope
  RETURN r, null AS score
  UNION
  WITH 1 AS go WHERE $ids IS NULL AND $source_id IS NULL AND size($words) = 0 AND NOT $exclude_stale
  MATCH (r:MemoryRecord)
  WHERE r.project = $project AND r.workspace = $workspace AND r.updated_at > '' AND ($scope IS NULL OR r.scope = $scope)
  WITH r ORDER BY r.project, r.workspace, r.updated_at DESC, r.id
  LIMIT $limit
  RETURN r, 0 AS score
  UNION
  WITH 1 AS go WHERE $ids IS NULL AND $source_id IS NULL AND size($words) = 0 AND $exclude_stale
  MATCH (r:MemoryRecord {project: $project, workspace: $workspace})
  WHERE $scope IS NULL OR r.scope = $scope
  RETURN r, 0 AS score
  UNION
  WITH 1 AS go WHERE $ids IS NULL AND $source_id IS NULL AND size($words) > 0
  CALL () {
    WITH 1 AS go WHERE NOT $exclude_stale
    MATCH (r:MemoryRecord)
    WHERE r.project = $project AND r.workspace = $workspace AND r.updated_at > '' AND ($scope IS NULL OR r.scope = $scope)
    WITH r ORDER BY r.project, r.workspace, r.updated_at DESC, r.id
    LIMIT 2000
    WITH r, CASE WHEN $with_fact_key THEN r.match_text + '\n' + r.fact_text ELSE r.match_text END AS text
    WHERE all(word IN $words WHERE text CONTAINS word)
    WITH r LIMIT $limit
    RETURN collect(r) AS complete
  }
  CALL (complete) {
    WITH complete WHERE size(complete) = $limit
    UNWIND complete AS r
    RETURN r, size($words) AS score
    UNION
    UNWIND CASE WHEN size(complete) < $limit THEN [$workspace] ELSE [] END AS workspace
    MATCH (r:MemoryRecord {project: $project, workspace: workspace})
    WHERE $scope IS NULL OR r.scope = $scope
    WITH r, CASE WHEN $with_fact_key THEN r.match_text + '\n' + r.fact_text ELSE r.match_text END AS text
    WITH r, size([word IN $words WHERE text CONTAINS word]) AS score
    WHERE score > 0
    WITH score, collect(r) AS tied
    ORDER BY score DESC
    WITH collect({score: score, tied: tied}) AS groups
    UNWIND range(0, size(groups) - 1) AS i
    WITH groups[i] AS group, reduce(n = 0, g IN groups[..i] | n + size(g.tied)) AS before
    WHERE $exclude_stale OR before < $limit
    UNWIND group.tied AS r
    RETURN r, group.score AS score
  }
  RETURN r, score
}
WITH r, coalesce(score, size([word IN $words
                              WHERE (CASE WHEN $with_fact_key THEN r.match_text + '\n' + r.fact_text
                                          ELSE r.match_text END) CONTAINS word])) AS score
WHERE (size($words) = 0 OR score > 0)
  AND ($team_repositories IS NULL OR NOT coalesce(r.source_id, '') STARTS WITH $team_prefix
       OR any(repo IN $team_repositories WHERE r.source_id STARTS WITH $team_prefix + repo + '/'))
WITH r, score
ORDER BY score DESC, r.updated_at DESC, r.id
LIMIT CASE WHEN $exclude_stale THEN 100000 ELSE $limit END
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
  WHERE ($team_repositories IS NULL OR NOT coalesce(other.source_id, '') STARTS WITH $team_prefix
          OR any(repo IN $team_repositories WHERE other.source_id STARTS WITH $team_prefix + repo + '/'))
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
