// Fact keys of the workspace records nearest in meaning to a query (memory vector index, cosine),
// which expand an abstract or unanswered memory search. The index spans every workspace and is filtered
// after its search, so `crowded` says when the caller should ask again with a larger $k: none of the $k
// neighbours is one of the workspace's, and the farthest of them is still near enough.
// Parameters: $project (project id), $workspace (workspace name), $vector (query embedding),
// $k (index neighbours), $min_score (least similarity, 0..1 as the index reports it).
CALL db.index.vector.queryNodes('memory_record_embedding', $k, $vector) YIELD node, score
WITH collect({node: node, score: score}) AS hits
WITH hits, [h IN hits WHERE h.node.project = $project AND h.node.workspace = $workspace
                            AND h.node.fact_key IS NOT NULL AND h.score >= $min_score] AS own
RETURN [fact IN own | {fact_key: fact.node.fact_key, score: fact.score}] AS facts,
       size(own) = 0 AND size(hits) = $k AND hits[-1].score >= $min_score AS crowded
