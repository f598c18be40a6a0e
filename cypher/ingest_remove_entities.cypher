// Removes entities whose files are gone: their declared links and pack membership are deleted and
// the node becomes a placeholder (links from other entities keep pointing to it); its passages go too.
// Parameters: $ids (list of entity ids).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
OPTIONAL MATCH (e)-[r]-()
WHERE r.declared_by = id OR type(r) = 'CONTAINS'
DELETE r
WITH DISTINCT e
OPTIONAL MATCH (passage:Passage {entity: e.id})
DELETE passage
WITH DISTINCT e
REMOVE e:$(CASE WHEN coalesce(e.kind_label, 'Entity') = 'Entity' THEN 'Missing' ELSE e.kind_label END)
SET e = {id: e.id, title: e.id}
SET e:Missing
