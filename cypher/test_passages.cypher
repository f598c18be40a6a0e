// The passages stored for some entities, in file order (the tests check what ingest keeps).
// Parameters: $ids (entity ids).
MATCH (p:Passage)
WHERE p.entity IN $ids
RETURN p.entity AS entity, p.path AS path, p.lines AS lines, p.sha256 AS sha256, p.text AS text
ORDER BY p.entity, p.lines[0]
