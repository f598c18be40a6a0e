// Every body passage of some entities, in file order, for citation: entity id, pack-relative path, file
// line range [first, last], the file's sha256 and the passage's text (the service ranks them by the question).
// Parameters: $ids (entity ids).
UNWIND $ids AS id
MATCH (p:Passage {entity: id})
RETURN p.entity AS id, p.path AS path, p.lines AS lines, p.sha256 AS sha256, p.text AS text
ORDER BY id, p.lines[0]
