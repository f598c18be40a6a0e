// Marks the database as the test suite's own (see test_foreign_nodes.cypher).
// Parameters: none.
MERGE (:GraphRagTestMarker {id: 'graphrag-test-suite'})
