// A full-text index on :Entity that an analyst made for their own queries, not the service (the tests check
// that a server start leaves it alone).
// Parameters: none.
CREATE FULLTEXT INDEX analyst_entity_notes IF NOT EXISTS FOR (e:Entity) ON EACH [e.title, e.note] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard'}}
