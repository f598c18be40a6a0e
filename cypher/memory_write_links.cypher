// Creates the archivist's links between records; the type comes from a fixed list checked by the caller.
// Parameters: $rows (list of {source, target, type: 'RELATES_TO'|'FIXES_ISSUE'|'SUPERSEDES', weight}).
UNWIND $rows AS row
MATCH (a:MemoryRecord {id: row.source}), (b:MemoryRecord {id: row.target})
CREATE (a)-[link:$(row.type)]->(b)
SET link.weight = row.weight, link.built_by = 'archivist'
