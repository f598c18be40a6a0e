// Looks up the entities behind vector hits, best hit first: metadata and summary come from the graph,
// so a hit always shows what Neo4j holds now; ids that are no longer entities are left out.
// Parameters: $ids (list of entity ids, in hit order).
UNWIND range(0, size($ids) - 1) AS rank
MATCH (e:Entity {id: $ids[rank]})
WHERE NOT e:Missing
RETURN e.id AS id, e.pack AS pack, e.kind AS kind, e.title AS title, e.summary AS summary,
       e.path AS path, e.sha256 AS sha256
ORDER BY rank
