// Every entity with the names a question may call it by (id, title, aliases), its pack and kind:
// the entity-linking table and the nodes of the graph walk, read again whenever an ingest changes the graph.
// Parameters: none.
MATCH (e:Entity)
RETURN e.id AS id, e.title AS title, coalesce(e.aliases, []) AS aliases, e.pack AS pack, e.kind AS kind,
       e:Missing AS missing
