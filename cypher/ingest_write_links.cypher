// Writes typed links of one relationship type; a target (or, for inverse names, a source) that no file
// defines becomes a placeholder node (:Entity:Missing) until a file defines it. A link is merged on its
// identity (source, type, target, declaring entity), not created: two ingests of one pack at once then write
// it once (MERGE locks both ends before it creates), where CREATE wrote every link twice. The type is written
// into the query (`LINK_TYPE` stands for it: an UPPER_SNAKE type validated by the ingester), one call per
// type: Neo4j 5.26 plans a MERGE of a dynamic type, $(row.type), as a scan of every relationship, which
// took 69 s for the first 1,000 entities of an empty graph, where a written type expands between the ends.
// Parameters: $rows (list of {source, target, weight, note, declared_by, declared_in}).
UNWIND $rows AS row
MERGE (s:Entity {id: row.source})
ON CREATE SET s:Missing, s.title = row.source
MERGE (t:Entity {id: row.target})
ON CREATE SET t:Missing, t.title = row.target
MERGE (s)-[r:`LINK_TYPE` {declared_by: row.declared_by}]->(t)
SET r.weight = row.weight,
    r.note = row.note,
    r.declared_in = row.declared_in
