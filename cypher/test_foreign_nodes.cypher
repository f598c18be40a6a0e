// Counts nodes that the test suite did not create, so it never wipes a graph someone works in.
// Parameters: none.
MATCH (n)
WHERE NOT n:GraphRagTestMarker
  AND NOT EXISTS { MATCH (:GraphRagTestMarker) }
RETURN count(n) AS foreign
