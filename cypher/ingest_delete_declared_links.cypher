// Deletes the typed links that some entities' files declared, before their new links are written.
// Parameters: $ids (list of entity ids).
UNWIND $ids AS id
MATCH (e:Entity {id: id})-[r]-()
WHERE r.declared_by = id
DELETE r
