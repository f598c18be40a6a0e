// Packs indexed from team sources (ids start with github:), connected or not: a caller sees one only
// while GitHub says it may read the repository.
// Parameters: none.
MATCH (p:Pack)
WHERE p.id STARTS WITH 'github:'
RETURN p.id AS id
ORDER BY id
