// The live graph's relationships counted by type and by the labels at either end (for `graphrag schema`).
// Parameters: none.
MATCH (a)-[r]->(b)
RETURN labels(a) AS source, type(r) AS type, labels(b) AS target, count(*) AS count
