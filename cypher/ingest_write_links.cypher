// Writes typed links; a target (or, for inverse names, a source) that no file defines becomes
// a placeholder node (:Entity:Missing) until a file defines it. A link is merged on its identity (source,
// type, target, declaring entity), not created: two ingests of one pack at once then write it once (MERGE
// locks both ends before it creates), where CREATE wrote every link twice.
// Parameters: $rows (list of {source, type, target, weight, note, declared_by, declared_in});
// `type` is an UPPER_SNAKE relationship type validated by the ingester.
UNWIND $rows AS row
MERGE (s:Entity {id: row.source})
ON CREATE SET s:Missing, s.title = row.source
MERGE (t:Entity {id: row.target})
ON CREATE SET t:Missing, t.title = row.target
MERGE (s)-[r:$(row.type) {declared_by: row.declared_by}]->(t)
SET r.weight = row.weight,
    r.note = row.note,
    r.declared_in = row.declared_in
