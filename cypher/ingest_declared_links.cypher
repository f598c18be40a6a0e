// The stored version of some files: each one's content hash and the typed links it declares (in their stored
// direction), so `graphrag watch` can tell what one save changed.
// Parameters: $files (list of {pack, path}: pack id and pack-relative path).
UNWIND $files AS file
MATCH (e:Entity {pack: file.pack, path: file.path})
WHERE NOT e:Missing
OPTIONAL MATCH (e)-[r]-(:Entity)
WHERE r.declared_by = e.id
RETURN file.pack AS pack, file.path AS path, e.sha256 AS sha256,
       collect(DISTINCT CASE WHEN r IS NOT NULL THEN {source: startNode(r).id, type: type(r), target: endNode(r).id} END)
         AS links
