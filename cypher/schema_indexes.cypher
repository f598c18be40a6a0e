// The live graph's indexes, with the constraint that owns each (for `graphrag schema`).
// Parameters: none.
SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, owningConstraint
WHERE type <> 'LOOKUP'
RETURN name, type, entityType, labelsOrTypes, properties, owningConstraint
ORDER BY name
