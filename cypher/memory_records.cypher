// Selects memory records of one workspace with score, status and graph relations: the one query behind
// search, saving (the record just saved) and validate_memory (all records of a source).
// score = how many of $words occur in the record's normalised content and source (plus its fact key when
// $with_fact_key); with no words every record matches with score 0. Order: score, then last change, then id.
// Words are \w+ runs (no line break), so a word occurs in content + '\n' + fact key iff it occurs in one of them.
// Candidates come from one of the branches of the first CALL (their conditions exclude each other), each
// reading no more than the answer can use: $ids by the unique id, $source_id by its index; with no words the
// newest $limit records in index order (all of them when $exclude_stale, which needs their status). With words,
// the newest records are read first (index order, at most 2000): when $limit of them hold every word, nothing
// can outrank them. Else the newest 500 are scored: the $limit-th best score among them is a floor that an
// older record must pass to rank above them (neither read when $exclude_stale, as a stale one may drop out;
// both run whatever the other finds, because a read that depends on an earlier one loses the index order).
// When none of the newest records holds every word, one full-text hit is asked for first: with none, no record
// holds any word, and the branch ends before reading the newest 500 (a search whose words occur nowhere).
// The other candidates are hits of the full-text index memory_record_text ($text_queries, built by
// graphrag/memory/text.py), whose Lucene score bounds a record's score from above: only hits above the floor
// are read, the best 2000 first and the rest only when the 2000th is still above it; when the floor is one
// short of every word, the query that asks for every word (all) replaces the one that asks for any (any).
// With several batches of words there is no floor (their bounds add up across batches). No branch reads
// every record of the workspace. Candidates are checked against project, workspace and scope and scored
// exactly; only the score groups that can reach the first $limit places (all when $exclude_stale) go on to be
// ordered, so the other matches never have their order keys read.
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
// $text_queries (the Lucene queries of $words, one {any, all} per batch of words), $max_relations (max graph_relations
// per record), $team_prefix ('github:'), $team_repositories (null, or the owner/repo names the caller may read
// now: a record whose source_id names a file of another team repository, github:owner/repo/..., is left out,
// as is a relation preview of one).
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
    WITH 1 AS go WHERE size(complete) = 0
    UNWIND $text_queries AS text_query
    CALL db.index.fulltext.queryNodes('memory_record_text', text_query.any, {limit: 1}) YIELD node
    RETURN count(node) AS candidates
  }
  WITH complete WHERE size(complete) > 0 OR candidates > 0
  CALL () {
    WITH 1 AS go WHERE NOT $exclude_stale
    MATCH (r:MemoryRecord)
    WHERE r.project = $project AND r.workspace = $workspace AND r.updated_at > '' AND ($scope IS NULL OR r.scope = $scope)
    WITH r ORDER BY r.project, r.workspace, r.updated_at DESC, r.id
    LIMIT 500
    WITH r, CASE WHEN $with_fact_key THEN r.match_text + '\n' + r.fact_text ELSE r.match_text END AS text
    WITH r, size([word IN $words WHERE text CONTAINS word]) AS score
    WHERE score > 0
    RETURN collect({r: r, score: score}) AS recent
  }
  WITH complete, recent,
       CASE WHEN size(complete) = $limit THEN size($words) WHEN size($text_queries) = 1
            THEN reduce(floor = 0, s IN range(1, size($words)) |
                        CASE WHEN size([x IN recent WHERE x.score >= s]) >= $limit THEN s ELSE floor END)
            ELSE 0 END AS floor
  WITH complete, recent, floor,
       [q IN $text_queries | CASE WHEN floor = size($words) - 1 THEN q.all ELSE q.any END] AS lucene
  CALL (floor, lucene) {
    UNWIND CASE WHEN 0 < floor < size($words) THEN lucene ELSE [] END AS text_query
    CALL db.index.fulltext.queryNodes('memory_record_text', text_query, {limit: 2000}) YIELD node, score
    RETURN collect({r: node, bound: score}) AS best
  }
  CALL (floor, lucene, best) {
    UNWIND CASE WHEN floor = 0 OR (size(best) = 2000 AND best[-1].bound > floor + 0.5) THEN lucene
                ELSE [] END AS text_query
    CALL db.index.fulltext.queryNodes('memory_record_text', text_query) YIELD node, score
    WHERE score > floor + 0.5
    RETURN collect(node) AS above
  }
  CALL (complete, recent, best, above, floor) {
    UNWIND complete + [x IN recent | x.r] + [h IN best WHERE h.bound > floor + 0.5 | h.r] + above AS r
    WITH DISTINCT r
    WHERE r.project = $project AND r.workspace = $workspace AND ($scope IS NULL OR r.scope = $scope)
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
