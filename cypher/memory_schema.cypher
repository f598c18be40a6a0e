// Creates the constraints and indexes of the agents' memory (idempotent; run before the memory tools serve).
// Workspaces are unique per project; records are found by workspace, by fact key and by source, and the
// newest records of a workspace are read in index order (updated_at). memory_record_text finds the records
// that hold a query's words: whitespace-separated pieces of the normalised text and of the fact key's words
// (both already folded, so no analyzer folding), searched with *word* wildcards, and the owner's project and
// workspace to narrow the hits to one workspace, and text_pieces ('long' on a record that holds a run the
// analyzer cuts into pieces: graphrag/memory/text.py). It is updated in the writing transaction (not eventually
// consistent), so a record is found as soon as its save returns. An index of this name whose analyzer or
// fields differ is dropped and created again; other full-text indexes are left alone.
// Parameters: none.
CREATE CONSTRAINT memory_project_id IF NOT EXISTS FOR (p:Project) REQUIRE p.id IS UNIQUE;
CREATE CONSTRAINT memory_workspace_key IF NOT EXISTS FOR (w:Workspace) REQUIRE (w.project, w.name) IS UNIQUE;
CREATE CONSTRAINT memory_record_id IF NOT EXISTS FOR (r:MemoryRecord) REQUIRE r.id IS UNIQUE;
CREATE INDEX memory_workspace_name IF NOT EXISTS FOR (w:Workspace) ON (w.name);
CREATE INDEX memory_record_workspace IF NOT EXISTS FOR (r:MemoryRecord) ON (r.project, r.workspace);
CREATE INDEX memory_record_fact IF NOT EXISTS FOR (r:MemoryRecord) ON (r.project, r.workspace, r.fact_key);
CREATE INDEX memory_record_source IF NOT EXISTS FOR (r:MemoryRecord) ON (r.project, r.workspace, r.source_id);
CREATE INDEX memory_entity_path IF NOT EXISTS FOR (e:Entity) ON (e.path);
CREATE VECTOR INDEX memory_record_embedding IF NOT EXISTS FOR (r:MemoryRecord) ON (r.embedding)
  OPTIONS {indexConfig: {`vector.similarity_function`: 'cosine'}};
CREATE INDEX memory_record_recent IF NOT EXISTS FOR (r:MemoryRecord) ON (r.project, r.workspace, r.updated_at);
CREATE FULLTEXT INDEX memory_record_text IF NOT EXISTS FOR (r:MemoryRecord) ON EACH [r.match_text, r.fact_text, r.text_pieces, r.project, r.workspace] OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}
