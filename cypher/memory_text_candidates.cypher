// Whether the full-text index memory_record_text holds a candidate for some of a query's words in the workspace
// (its hits are a superset of the records that hold a word: graphrag/memory/text.py). A search that found
// nothing asks this of the fact keys beside its expansion: with no candidate and no new word, it is over.
// Parameters: $text_queries (the Lucene queries of the words, one {any, all} per batch of words).
UNWIND $text_queries AS text_query
CALL db.index.fulltext.queryNodes('memory_record_text', text_query.any, {limit: 1}) YIELD node
RETURN count(node) > 0 AS found
