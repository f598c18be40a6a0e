// Deletes the passages of some entities (before their new ones are written, or when they are removed).
// Parameters: $ids (list of entity ids).
UNWIND $ids AS id
MATCH (p:Passage {entity: id})
DELETE p
