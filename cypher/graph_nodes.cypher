// The graph view of some entities: kind, title and whether each is a placeholder.
// Parameters: $ids (list of entity ids).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e.id AS id, e.kind AS kind, e.title AS title, e:Missing AS missing
