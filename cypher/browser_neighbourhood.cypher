// An entity's neighbourhood: every entity within two typed links of $id, drawn as paths. Every node on a path
// is an entity, so the walk never runs through the (:Pack)-[:CONTAINS]-> hub (two entities of one pack are
// not neighbours) nor through memory records; placeholders (:Missing) show where a link dangles.
// Parameters: $id (an entity id).
MATCH p = (:Entity {id: $id}) (()--(:Entity)){1,2}
RETURN p
LIMIT 300
