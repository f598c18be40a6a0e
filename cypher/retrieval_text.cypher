// Entities whose title, aliases, summary or body match a full-text query, best first, within packs and kinds.
// Parameters: $index (one of the entity_text indexes: entity_text, entity_text_ru, entity_text_cjk),
// $lucene (the query: quoted terms joined with OR), $fetch (hits read from the index before filtering),
// $packs, $kinds (lists, or null for all), $limit (most hits returned).
CALL db.index.fulltext.queryNodes($index, $lucene, {limit: $fetch}) YIELD node, score
WHERE NOT node:Missing AND ($packs IS NULL OR node.pack IN $packs) AND ($kinds IS NULL OR node.kind IN $kinds)
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
