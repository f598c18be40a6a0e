// The live graph's node properties per label combination, with their types and whether every node has them.
// Parameters: none.
CALL db.schema.nodeTypeProperties() YIELD nodeLabels, propertyName, propertyTypes, mandatory
WHERE propertyName IS NOT NULL
RETURN nodeLabels AS labels, propertyName AS property, propertyTypes AS types, mandatory
ORDER BY labels, property
