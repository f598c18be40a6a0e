// One entity for pack_get: its properties (the body left out), a window of its body, and a window of its
// typed links both ways (`outgoing` says which), each with a preview of the entity at the other end, and how
// many links it has in all. Links are ordered (outgoing first, then by relation and id) on their ids alone;
// previews are read for the window only, so a page of a hub's 50,000 links reads 50,000 ids, not summaries.
// Parameters: $id (entity id), $offset, $length (the body window, in code points), $skip, $take (the links
// window), $preview (most characters of the other end's summary), $hidden (pack ids the caller may not see:
// such an entity is not found, and links to one are left out). A link's file is given only when the link was
// not declared by its source (a declared inverse): most links of a hub then cost no file path.
MATCH (e:Entity {id: $id})
WHERE NOT coalesce(e.pack, '') IN $hidden
CALL (e) {
  OPTIONAL MATCH (e)-[r]-(o:Entity)
  WHERE NOT coalesce(o.pack, '') IN $hidden
  WITH r, o, startNode(r) = e AS outgoing
  ORDER BY outgoing DESC, type(r), o.id
  WITH [x IN collect({r: r, o: o, outgoing: outgoing}) WHERE x.o IS NOT NULL] AS every
  RETURN size(every) AS links_total,
         [x IN every[$skip..$skip + $take] |
          {outgoing: x.outgoing, relation: type(x.r), id: x.o.id, kind: x.o.kind, title: x.o.title,
           summary: left(x.o.summary, $preview), missing: x.o:Missing, weight: x.r.weight, note: x.r.note,
           declared_in: CASE WHEN x.r.declared_by = startNode(x.r).id THEN null ELSE x.r.declared_in END}] AS links
}
RETURN e {.*, body: null} AS properties, e:Missing AS missing, size(coalesce(e.body, '')) AS body_length,
       substring(coalesce(e.body, ''), $offset, $length) AS body, links, links_total
