// One page of the retrievers' copy of the graph: the entities whose ids come after $after, in id order (the
// unique index serves the order), each with the names a question may call it by (id, title, aliases), its
// pack, kind, and its typed links out. The entity-linking table and the graph walk's edges, read again
// whenever an ingest changes the graph. A page is one row of parallel columns, named as retrieval_names_of
// names an entity's fields: the driver spends about 20 µs on each row it receives and well under one on each
// value of a list, so the copy of 15,000 entities reads in 0.2 s instead of 1.0 (a null is never collected,
// hence the coalesce).
// Parameters: $after (the last id of the page before; '' for the first), $size (entities per page),
// $types (the relationship types of the packs' relation vocabulary).
MATCH (e:Entity) WHERE e.id > $after
WITH e ORDER BY e.id LIMIT $size
CALL (e) {
  OPTIONAL MATCH (e)-[r]->(b:Entity) WHERE type(r) IN $types
  RETURN collect(type(r)) AS link_types, collect(b.id) AS link_targets
}
RETURN collect(e.id) AS id, collect(coalesce(e.title, '')) AS title, collect(coalesce(e.aliases, [])) AS aliases,
       collect(coalesce(e.pack, '')) AS pack, collect(coalesce(e.kind, '')) AS kind, collect(e:Missing) AS missing,
       collect(link_types) AS link_types, collect(link_targets) AS link_targets
