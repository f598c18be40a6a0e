// Replaces the Russian full-text index with one of the same name and fields but another analyzer, as an
// older release might have left it (the tests check that the next ingest re-creates it).
// Parameters: none.
DROP INDEX entity_text_ru IF EXISTS;
CREATE FULLTEXT INDEX entity_text_ru IF NOT EXISTS FOR (e:Entity) ON EACH [e.title, e.summary, e.alias_text, e.body_ru] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard'}}
