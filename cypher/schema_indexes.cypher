// The live graph's indexes, with the constraint that owns each (for `graphrag schema`, and for the schema
// files: a statement whose index or constraint is there already is not sent).
// Parameters: none.
SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, owningConstraint
WHERE type <> 'LOOKUP'
RETURN name, type, entityType, labelsOrTypes, properties, owningConstraint
ORDER BY name
