// Creates the constraints and indexes of the graph model (idempotent; run at every ingest and server start).
// Parameters: none.
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE;
CREATE CONSTRAINT pack_id IF NOT EXISTS FOR (p:Pack) REQUIRE p.id IS UNIQUE;
CREATE INDEX entity_pack IF NOT EXISTS FOR (e:Entity) ON (e.pack);
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (e:Entity) ON EACH [e.title, e.summary, e.alias_text, e.body];
