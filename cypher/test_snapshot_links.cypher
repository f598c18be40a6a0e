// Every relationship as (source id, type, target id, properties), in a stable order.
// Parameters: none.
MATCH (s)-[r]->(t)
RETURN s.id AS source, type(r) AS type, t.id AS target, properties(r) AS properties
ORDER BY source, type, target, coalesce(r.declared_by, '')
