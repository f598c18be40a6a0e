// Writes the passages of some entities' bodies (their old passages were deleted first): each keeps its
// entity id, pack-relative path, file line range [first, last] and the file's sha256, for citation.
// Parameters: $rows (list of {id, entity, pack, path, lines: [first, last], sha256, heading, text}).
UNWIND $rows AS row
CREATE (p:Passage)
SET p = row
