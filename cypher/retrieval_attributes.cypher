// The frontmatter attributes of some entities (pack_context): every stored property but those named in $skip
// (the entity's own fields and what the ingester keeps, bodies among them, which so never leave the database),
// as [name, value] pairs.
// Parameters: $ids (entity ids), $skip (property names left out).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN id, [key IN keys(e) WHERE NOT key IN $skip | [key, e[key]]] AS attributes
