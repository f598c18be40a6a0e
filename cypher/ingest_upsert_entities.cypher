// Creates or replaces entities: all properties, the kind label, the pack that contains them.
// A placeholder (:Missing) with the same id becomes the real entity, keeping its incoming links.
// Parameters: $rows (list of {id, pack, kind_label, props: map of all entity properties}).
UNWIND $rows AS row
MERGE (e:Entity {id: row.id})
WITH e, row, coalesce(e.kind_label, 'Entity') AS previous_label, coalesce(e.revision, 0) AS previous_revision
REMOVE e:$(CASE WHEN previous_label IN ['Entity', row.kind_label] THEN 'Missing' ELSE previous_label END)
REMOVE e:Missing
SET e = row.props,
    e.revision = previous_revision + 1,
    e.ingested_at = datetime()
SET e:$(row.kind_label)
WITH e, row
OPTIONAL MATCH (other:Pack)-[old:CONTAINS]->(e)
WHERE other.id <> row.pack
DELETE old
WITH DISTINCT e, row
MERGE (p:Pack {id: row.pack})
MERGE (p)-[:CONTAINS]->(e)
