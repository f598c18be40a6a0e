// Fact keys of the workspace records nearest in meaning to a query (memory vector index, cosine),
// which expand an abstract or unanswered memory search.
// Parameters: $project (project id), $workspace (workspace name), $vector (query embedding),
// $k (index neighbours), $min_score (least similarity, 0..1 as the index reports it).
CALL db.index.vector.queryNodes('memory_record_embedding', $k, $vector) YIELD node, score
WHERE node.project = $project AND node.workspace = $workspace AND node.fact_key IS NOT NULL
  AND score >= $min_score
RETURN node.fact_key AS fact_key, max(score) AS score
ORDER BY score DESC, fact_key
