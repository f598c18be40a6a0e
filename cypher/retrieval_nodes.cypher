// The graph view of some entities: kind, title and whether each is a placeholder.
// Parameters: $ids (list of entity ids), $hidden (pack ids the caller may not see: left out).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE NOT coalesce(e.pack, '') IN $hidden
RETURN e.id AS id, e.kind AS kind, e.title AS title, e:Missing AS missing
