// Entities whose title, aliases, summary or body match a question in one full-text index, within packs and
// kinds. The question's words find them, and so does each passage it quotes, as written ($fetch hits of
// each read from the index before filtering); the whole query ($lucene: words, neighbouring pairs as
// phrases, quotes) then scores only those, held to their text keys ($batch keys a query: Lucene refuses
// more than 1,024 clauses). A phrase is checked position by position in every entity that holds its words,
// so asked of the whole index it costs most for common words in a large corpus; held to the keys, each
// entity found gets the same score for a fraction of the work.
// Parameters: $index (entity_text, entity_text_ru or entity_text_cjk), $words (quoted terms joined with OR),
// $quoted (the quoted passages as phrases, or null), $written_index (entity_text: the one index over every
// text as written, digits and punctuation included; a script's own index holds only that script's words), $lucene, $fetch, $packs, $kinds (lists, or null for
// all), $batch. Returns one row: found (id and words' score), written (ids holding a quote as written),
// scored (id and the whole query's score).
CALL db.index.fulltext.queryNodes($index, $words, {limit: $fetch}) YIELD node, score
WHERE NOT node:Missing AND ($packs IS NULL OR node.pack IN $packs) AND ($kinds IS NULL OR node.kind IN $kinds)
WITH collect({node: node, score: score}) AS found
CALL () {
  UNWIND CASE WHEN $quoted IS NULL THEN [] ELSE [$quoted] END AS quoted
  CALL db.index.fulltext.queryNodes($written_index, quoted, {limit: $fetch}) YIELD node
  WHERE NOT node:Missing AND ($packs IS NULL OR node.pack IN $packs) AND ($kinds IS NULL OR node.kind IN $kinds)
  RETURN collect(node) AS written
}
WITH found, written, [hit IN found | hit.node] AS words
WITH found, written, [node IN words + [node IN written WHERE NOT node IN words] WHERE node.text_key =~ '[0-9]+'
                      | node.text_key] AS keys
CALL (keys) {
  UNWIND [start IN range(0, size(keys) - 1, $batch) WHERE start < size(keys)] AS start  // range(0, -1, n) is [0]
  WITH reduce(list = '', key IN keys[start..start + $batch] | list + ' ' + key) AS batch
  CALL db.index.fulltext.queryNodes($index, '+text_key:(' + batch + ')^0 +(' + $lucene + ')', {limit: $batch})
  YIELD node, score
  RETURN collect({id: node.id, score: score}) AS scored
}
RETURN [hit IN found | {id: hit.node.id, score: hit.score}] AS found, [node IN written | node.id] AS written, scored
