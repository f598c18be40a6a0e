// Every typed link into or out of the entities among $ids (source id, relationship type, target id), each once:
// the edges a write of this process changed in the graph walk's copy.
// Parameters: $ids (entity ids), $types (the relationship types of the packs' relation vocabulary).
UNWIND $ids AS id
MATCH (:Entity {id: id})-[r]-(:Entity)
WHERE type(r) IN $types
WITH DISTINCT r
RETURN startNode(r).id AS source, type(r) AS type, endNode(r).id AS target
