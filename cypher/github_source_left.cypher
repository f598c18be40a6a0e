// What is left of a team source in the graph: its entities, their passages, the links they declare and its Pack
// (after disconnect_source: nothing; the tests and bench/team_sources.py count it).
// Parameters: $id (the source's pack id).
OPTIONAL MATCH (e:Entity {pack: $id})
WITH collect(e) AS entities
OPTIONAL MATCH (p:Passage) WHERE p.entity IN [e IN entities | e.id]
WITH entities, count(p) AS passages
OPTIONAL MATCH ()-[r]->() WHERE r.declared_by IN [e IN entities | e.id]
RETURN size(entities) AS entities, passages, count(r) AS links,
       COUNT { MATCH (:Pack {id: $id}) } AS packs
