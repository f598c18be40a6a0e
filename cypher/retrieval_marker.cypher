// The freshness marker of the vectors: it changes whenever an ingest adds, edits or removes entities
// or re-embeds a pack (ingest writes vectors before the graph, so a new marker means new vectors).
// Parameters: none.
MATCH (e:Entity)
WHERE NOT e:Missing
WITH count(e) AS entities, max(e.ingested_at) AS last_ingest
OPTIONAL MATCH (p:Pack)
WITH entities, last_ingest, p
ORDER BY p.id
RETURN entities, toString(last_ingest) AS last_ingest, collect(p.id + '=' + coalesce(p.embedder, '')) AS embedders
