// Removes some of the archivist's outgoing links of some records before they are rebuilt.
// Parameters: $ids (record ids), $types (relationship types to remove, from RELATES_TO, FIXES_ISSUE, SUPERSEDES).
MATCH (r:MemoryRecord)-[link:RELATES_TO|FIXES_ISSUE|SUPERSEDES]->(:MemoryRecord)
WHERE r.id IN $ids AND type(link) IN $types
DELETE link
