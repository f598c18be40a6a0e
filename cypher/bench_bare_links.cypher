// Benchmark baseline: the plainest UNWIND write of typed link rows between BenchBare nodes.
// Parameters: $rows (list of {source, type, target}).
UNWIND $rows AS row
MERGE (s:BenchBare {id: row.source})
MERGE (t:BenchBare {id: row.target})
CREATE (s)-[:$(row.type)]->(t)
