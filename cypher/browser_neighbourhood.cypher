// An entity's neighbourhood: the entities within two typed links of $id, drawn as paths, direct links first and at
// most 40 paths, so a hub still draws a picture one can read. Every node on a path is an entity, so the walk never
// runs through the (:Pack)-[:CONTAINS]-> hub (two entities of one pack are not neighbours) nor through memory
// records; placeholders (:Missing) show where a link dangles.
// Parameters: $id (an entity id).
MATCH p = (:Entity {id: $id}) (()--(:Entity)){1,2}
RETURN p
ORDER BY length(p)
LIMIT 40
