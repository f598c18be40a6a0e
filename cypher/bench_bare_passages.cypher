// Benchmark baseline: the plainest UNWIND write of passage rows (no full-text indexes, no deletion first).
// Parameters: $rows (list of passage maps).
UNWIND $rows AS row
CREATE (p:BenchBarePassage)
SET p = row
