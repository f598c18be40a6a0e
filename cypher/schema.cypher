// Creates the constraints and indexes of the graph model (idempotent; run at every ingest and server start).
// Full-text indexes come one per language family, each with its analyzer (English stemming, Russian
// stemming, CJK bigrams); a query uses the ones its scripts need. The Russian and CJK indexes get
// only a body's words in their script (body_ru, body_cjk: written by ingest), the English one all of it. Each also holds the entity's text_key (a number of its own, graphrag/names.py), so a query
// can be held to chosen entities: a question's phrases are scored only on the entities its words found.
// Passages need no index: a question's passages are ranked among its entities' own. They are eventually
// consistent (updated after commit, off the writing transaction); ingest waits for them before it returns.
// An index of these names whose analyzer or fields differ is dropped and created again (an index cannot be
// altered), so a change here takes effect; other indexes (an analyst's own) are left alone, and the
// service's former ones are dropped by name below (the passages' indexes of older releases).
// Parameters: none.
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE;
CREATE CONSTRAINT pack_id IF NOT EXISTS FOR (p:Pack) REQUIRE p.id IS UNIQUE;
CREATE INDEX entity_pack IF NOT EXISTS FOR (e:Entity) ON (e.pack);
CREATE INDEX entity_ingested_at IF NOT EXISTS FOR (e:Entity) ON (e.ingested_at);
CREATE INDEX passage_entity IF NOT EXISTS FOR (p:Passage) ON (p.entity);
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (e:Entity) ON EACH [e.title, e.summary, e.alias_text, e.body, e.text_key] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX entity_text_ru IF NOT EXISTS FOR (e:Entity) ON EACH [e.title, e.summary, e.alias_text, e.body_ru, e.text_key] OPTIONS {indexConfig: {`fulltext.analyzer`: 'russian', `fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX entity_text_cjk IF NOT EXISTS FOR (e:Entity) ON EACH [e.title, e.summary, e.alias_text, e.body_cjk, e.text_key] OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: true}};
DROP INDEX passage_text IF EXISTS;
DROP INDEX passage_text_ru IF EXISTS;
DROP INDEX passage_text_cjk IF EXISTS
