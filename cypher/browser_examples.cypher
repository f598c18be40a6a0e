// Example parameters for the Browser guide: `id` is the real entity with the most typed links, `other` the real
// entity farthest from it (at most four typed links away), so every question runs on whatever packs are loaded.
// Parameters: none.
MATCH (e:Entity)
WHERE NOT e:Missing
WITH e ORDER BY COUNT { (e)--(:Entity) } DESC, e.id LIMIT 1
OPTIONAL MATCH p = ANY SHORTEST (e) (()--(:Entity)){1,4} (o:Entity)
WHERE NOT o:Missing AND o <> e
WITH e, o, length(p) AS hops ORDER BY hops DESC, o.id LIMIT 1
RETURN e.id AS id, coalesce(o.id, e.id) AS other
