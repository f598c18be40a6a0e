// Sets what the archivist derived for each record: the newer version (superseded_by) and the stale mark
// (a reason, or null when the record is fresh). Neither changes updated_at: the record itself did not change.
// Parameters: $rows (list of {id, superseded_by, stale_mark}).
UNWIND $rows AS row
MATCH (r:MemoryRecord {id: row.id})
SET r.superseded_by = row.superseded_by, r.stale_mark = row.stale_mark
