// Writes typed links; a target (or, for inverse names, a source) that no file defines becomes
// a placeholder node (:Entity:Missing) until a file defines it. The declaring files' old links were
// deleted first and a file's links are distinct, so each link is created, not merged.
// Parameters: $rows (list of {source, type, target, weight, note, declared_by, declared_in});
// `type` is an UPPER_SNAKE relationship type validated by the ingester.
UNWIND $rows AS row
MERGE (s:Entity {id: row.source})
ON CREATE SET s:Missing, s.title = row.source
MERGE (t:Entity {id: row.target})
ON CREATE SET t:Missing, t.title = row.target
CREATE (s)-[r:$(row.type)]->(t)
SET r.declared_by = row.declared_by,
    r.weight = row.weight,
    r.note = row.note,
    r.declared_in = row.declared_in
