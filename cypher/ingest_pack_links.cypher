// Counts the typed links declared by the entities of some packs, lists those whose other end is a
// placeholder (dangling: no file defines it), and the relationship types each pack uses.
// Parameters: $packs (list of pack ids).
MATCH (e:Entity)
WHERE e.pack IN $packs AND NOT e:Missing
CALL (e) {
  MATCH (e)-[r]->(other:Entity)
  WHERE r.declared_by = e.id
  RETURN r, other
  UNION
  MATCH (e)<-[r]-(other:Entity)
  WHERE r.declared_by = e.id AND other <> e
  RETURN r, other
}
WITH e.pack AS pack, r, other
WITH pack, collect(DISTINCT type(r)) AS types, count(r) AS links,
     [d IN collect(CASE WHEN other:Missing THEN {
        source: startNode(r).id, relation: toLower(type(r)), target: endNode(r).id, declared_in: r.declared_in
      } END) WHERE d IS NOT NULL] AS dangling
RETURN sum(links) AS links,
       reduce(all = [], d IN collect(dangling) | all + d) AS dangling,
       collect({pack: pack, types: types}) AS types
