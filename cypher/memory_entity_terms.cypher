// Pack entities whose title, summary, aliases or body match some query words (one of the entity_text
// indexes): their titles and aliases are the project terms that expand an unanswered memory search.
// Parameters: $index (entity_text, entity_text_ru or entity_text_cjk), $lucene (quoted words joined with OR),
// $limit (max entities).
CALL db.index.fulltext.queryNodes($index, $lucene) YIELD node, score
WHERE NOT node:Missing
RETURN node.title AS title, coalesce(node.aliases, []) AS aliases, score
ORDER BY score DESC, node.id
LIMIT $limit
