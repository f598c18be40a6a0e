// The entities that should have a vector (every real entity of a pack), and their packs: the server compares
// the count with the vectors the store holds at start.
// Parameters: none.
MATCH (e:Entity)
WHERE NOT e:Missing AND e.pack IS NOT NULL
RETURN count(e) AS entities, collect(DISTINCT e.pack) AS packs
