// The live graph's node labels and how many nodes carry each (for `graphrag schema`).
// Parameters: none.
CALL db.labels() YIELD label
CALL (label) {
  MATCH (n)
  WHERE label IN labels(n)
  RETURN count(n) AS nodes
}
RETURN label, nodes
ORDER BY label
