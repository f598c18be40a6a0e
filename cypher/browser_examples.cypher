// Example parameters for the Browser guide: `id` is a well-connected real entity whose neighbourhood (within two
// typed links) still draws as a readable picture: of the 100 real entities with the most typed links, the one with
// the most links whose neighbourhood holds at most 30 entities, else the one with the smallest neighbourhood;
// `other` is the real entity farthest from it (at most four typed links away). So every question runs, and the
// first draws a picture rather than a hairball, on whatever packs are loaded; `examples` holds each pack's most
// linked real entity, so a graph of several packs shows each of them.
// Parameters: none.
MATCH (e:Entity)
WHERE NOT e:Missing
WITH e, COUNT { (e)--(:Entity) } AS links
ORDER BY links DESC, e.id
LIMIT 100
CALL (e) {
  MATCH (e) (()--(:Entity)){1,2} (n:Entity)
  WHERE n <> e
  RETURN count(DISTINCT n) AS reach
}
WITH e, links, reach
ORDER BY reach <= 30 DESC, CASE WHEN reach <= 30 THEN -links ELSE reach END, e.id
LIMIT 1
OPTIONAL MATCH p = ANY SHORTEST (e) (()--(:Entity)){1,4} (o:Entity)
WHERE NOT o:Missing AND o <> e
WITH e, o, length(p) AS hops ORDER BY hops DESC, o.id LIMIT 1
CALL () {
  MATCH (x:Entity)
  WHERE NOT x:Missing AND x.pack IS NOT NULL
  WITH x.pack AS pack, x.id AS id, COUNT { (x)--(:Entity) } AS links
  ORDER BY pack, links DESC, id
  WITH pack, collect(id)[0] AS best
  RETURN collect(best) AS examples
}
RETURN e.id AS id, coalesce(o.id, e.id) AS other, examples
