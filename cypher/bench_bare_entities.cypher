// Benchmark baseline: the plainest UNWIND write of entity rows (no labels by kind, no pack, no diffing).
// Parameters: $rows (list of {id, props}).
UNWIND $rows AS row
MERGE (e:BenchBare {id: row.id})
SET e = row.props
