// The freshness marker of the graph and the vectors: it changes whenever an ingest adds, edits or removes
// entities or re-embeds a pack (ingest writes vectors before the graph, so a new marker means new vectors).
// Read every 2 seconds by each server, so it reads no entity: the entity and placeholder counts come from
// Neo4j's count store, the last ingest time from the entity_ingested_at index (an upsert sets it to now).
// Parameters: none.
CALL () { MATCH (e:Entity) RETURN count(e) AS nodes }
CALL () { MATCH (m:Missing) RETURN count(m) AS missing }
CALL () {
  OPTIONAL MATCH (e:Entity) WHERE e.ingested_at IS NOT NULL
  RETURN e.ingested_at AS last_ingest ORDER BY last_ingest DESC LIMIT 1
}
CALL () {
  OPTIONAL MATCH (p:Pack)
  WITH p ORDER BY p.id
  RETURN collect(p.id + '=' + coalesce(p.embedder, '')) AS embedders
}
RETURN nodes - missing AS entities, toString(last_ingest) AS last_ingest, embedders
