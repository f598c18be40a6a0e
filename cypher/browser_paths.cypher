// How two entities are connected: every shortest path between $id and $other through typed links (at most
// six), never through the pack hub or memory records.
// Parameters: $id (an entity id), $other (another entity id).
MATCH p = ALL SHORTEST (:Entity {id: $id}) (()--(:Entity)){1,6} (:Entity {id: $other})
RETURN p
LIMIT 25
