// Deletes what a benchmark wrote: the synthetic pack's entities, placeholders and passages, and the baseline nodes.
// Parameters: $pack (the synthetic pack id), $prefix (id prefix of its entities).
MATCH (n)
WHERE n:BenchBare OR n:BenchBarePassage OR (n:Entity AND (n.pack = $pack OR n.id STARTS WITH $prefix))
   OR (n:Pack AND n.id = $pack) OR (n:Passage AND n.pack = $pack)
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 5000 ROWS
