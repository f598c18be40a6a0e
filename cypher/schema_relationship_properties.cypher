// The live graph's relationship properties per type, with their types and whether every relationship has them.
// Parameters: none.
CALL db.schema.relTypeProperties() YIELD relType, propertyName, propertyTypes, mandatory
WHERE propertyName IS NOT NULL
RETURN relType AS type, propertyName AS property, propertyTypes AS types, mandatory
ORDER BY type, property
