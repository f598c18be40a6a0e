// Body passages of some entities that match a full-text query, best first, for citation: entity id,
// pack-relative path, file line range [first, last], the file's sha256 and the passage's text.
// Parameters: $index (one of passage_text, passage_text_ru, passage_text_cjk), $lucene (quoted terms
// joined with OR), $fetch (hits read from the index before keeping those of $ids), $ids (entity ids).
CALL db.index.fulltext.queryNodes($index, $lucene, {limit: $fetch}) YIELD node, score
WHERE node.entity IN $ids
RETURN node.entity AS id, node.path AS path, node.lines AS lines, node.sha256 AS sha256, node.text AS text, score
ORDER BY score DESC, node.id
