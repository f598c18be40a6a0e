// How many entities' text (title, aliases, summary, body) holds each phrase: how ordinary a name is in
// this corpus (a name most entities mention is a word, not a reference). Counted up to $cap per phrase.
// Parameters: $phrases (a list of {key, index, lucene}: the phrase's name key, the entity_text index of
// its script, and the phrase quoted as Lucene), $cap (most entities counted per phrase).
UNWIND $phrases AS phrase
CALL (phrase) {
  CALL db.index.fulltext.queryNodes(phrase.index, phrase.lucene, {limit: $cap}) YIELD node
  RETURN count(node) AS entities
}
RETURN phrase.key AS key, entities
