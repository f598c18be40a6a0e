// The ids of a pack's entities (placeholders are nobody's): what `graphrag drop` removes.
// Parameters: $id (pack id).
MATCH (e:Entity {pack: $id})
WHERE NOT e:Missing
RETURN e.id AS id
ORDER BY id
