// Full-text indexes that an analyst made for their own queries, on :Entity and on :MemoryRecord, not the
// service's (the tests check that a server start leaves them alone).
// Parameters: none.
CREATE FULLTEXT INDEX analyst_entity_notes IF NOT EXISTS FOR (e:Entity) ON EACH [e.title, e.note] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard'}};
CREATE FULLTEXT INDEX analyst_memory_notes IF NOT EXISTS FOR (r:MemoryRecord) ON EACH [r.content] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
