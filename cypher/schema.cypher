// Creates the constraints and indexes of the graph model (idempotent; run at every ingest and server start).
// Full-text indexes come one per language family, each with its analyzer (English stemming, Russian
// stemming, CJK bigrams); a query uses the ones its scripts need. Neo4j allows one full-text index per
// label and ordered property list, so the three list the same fields in three orders. An index whose
// analyzer or fields differ from these is dropped first (an index cannot be altered), so a change here
// takes effect.
// Parameters: none.
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE;
CREATE CONSTRAINT pack_id IF NOT EXISTS FOR (p:Pack) REQUIRE p.id IS UNIQUE;
CREATE INDEX entity_pack IF NOT EXISTS FOR (e:Entity) ON (e.pack);
CREATE INDEX passage_entity IF NOT EXISTS FOR (p:Passage) ON (p.entity);
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (e:Entity) ON EACH [e.title, e.summary, e.alias_text, e.body] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX entity_text_ru IF NOT EXISTS FOR (e:Entity) ON EACH [e.body, e.title, e.summary, e.alias_text] OPTIONS {indexConfig: {`fulltext.analyzer`: 'russian'}};
CREATE FULLTEXT INDEX entity_text_cjk IF NOT EXISTS FOR (e:Entity) ON EACH [e.alias_text, e.title, e.summary, e.body] OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}};
CREATE FULLTEXT INDEX passage_text IF NOT EXISTS FOR (p:Passage) ON EACH [p.text] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX passage_text_ru IF NOT EXISTS FOR (p:Passage) ON EACH [p.text, p.heading] OPTIONS {indexConfig: {`fulltext.analyzer`: 'russian'}};
CREATE FULLTEXT INDEX passage_text_cjk IF NOT EXISTS FOR (p:Passage) ON EACH [p.heading, p.text] OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}}
