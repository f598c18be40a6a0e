// The first passage of each of some entities' bodies (what an entity opens with, when no passage matched).
// Parameters: $ids (entity ids).
UNWIND $ids AS id
MATCH (p:Passage {entity: id})
WITH id, p
ORDER BY p.lines[0]
WITH id, head(collect(p)) AS p
RETURN id, p.path AS path, p.lines AS lines, p.sha256 AS sha256, p.text AS text, 0.0 AS score
