// One entity for pack_get: its properties (the body left out), a window of its body, and its typed links
// both ways (`outgoing` says which), each with a preview of the entity at the other end.
// Parameters: $id (entity id), $offset, $length (the body window, in code points),
// $preview (most characters of the other end's summary), $hidden (pack ids the caller may not see: such an
// entity is not found, and links to one are left out).
MATCH (e:Entity {id: $id})
WHERE NOT coalesce(e.pack, '') IN $hidden
CALL (e) {
  OPTIONAL MATCH (e)-[r]-(o:Entity)
  WHERE NOT coalesce(o.pack, '') IN $hidden
  WITH r, o, startNode(r) = e AS outgoing
  ORDER BY outgoing DESC, type(r), o.id
  RETURN [l IN collect({outgoing: outgoing, relation: type(r), id: o.id, kind: o.kind, title: o.title,
                        summary: left(o.summary, $preview), missing: o:Missing, weight: r.weight, note: r.note,
                        declared_in: r.declared_in}) WHERE l.id IS NOT NULL] AS links
}
RETURN e {.*, body: null} AS properties, e:Missing AS missing, size(coalesce(e.body, '')) AS body_length,
       substring(coalesce(e.body, ''), $offset, $length) AS body, links
