// Pack entities whose title, summary, aliases or body match some query words (full-text index entity_text):
// their titles and aliases are the project terms that expand an unanswered memory search.
// Parameters: $lucene (Lucene query, words escaped and joined with OR), $limit (max entities).
CALL db.index.fulltext.queryNodes('entity_text', $lucene) YIELD node, score
WHERE NOT node:Missing
RETURN node.title AS title, coalesce(node.aliases, []) AS aliases, score
ORDER BY score DESC, node.id
LIMIT $limit
