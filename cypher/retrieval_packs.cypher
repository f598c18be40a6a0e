// Lists the ids of all packs (to explain a pack filter that names none of them).
// Parameters: none.
MATCH (p:Pack)
RETURN p.id AS id
ORDER BY id
