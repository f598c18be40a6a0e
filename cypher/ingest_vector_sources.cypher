// The stored entities whose vectors a run makes again from the graph, their files unread: those of the packs
// the run does not ingest, when it rebuilt the vector collection (gone, or made by another embedding model).
// Parameters: $ids (entity ids). Returns what the vector is made of and its payload.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE NOT e:Missing
RETURN e.id AS id, e.pack AS pack, e.kind AS kind, e.title AS title, e.summary AS summary, e.path AS path,
       e.sha256 AS sha256
