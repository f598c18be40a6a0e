// Entities whose body passages match a full-text query, each with its best passage's score, best first,
// within packs and kinds (a long body is found by the one section that is about the question).
// Parameters: $index (one of passage_text, passage_text_ru, passage_text_cjk), $lucene (quoted terms joined
// with OR), $fetch (passage hits read from the index), $packs, $kinds (lists, or null for all), $limit.
CALL db.index.fulltext.queryNodes($index, $lucene, {limit: $fetch}) YIELD node, score
WITH node.entity AS id, max(score) AS score
MATCH (e:Entity {id: id})
WHERE ($packs IS NULL OR e.pack IN $packs) AND ($kinds IS NULL OR e.kind IN $kinds)
RETURN id, score
ORDER BY score DESC, id
LIMIT $limit
