// Deletes placeholders that nothing links to any more.
// Parameters: none.
MATCH (m:Entity:Missing)
WHERE NOT EXISTS { (m)--() }
DELETE m
