// Removes the test suite's marker node for a moment (a schema test reads the graph without it).
// Parameters: none.
MATCH (marker:GraphRagTestMarker)
DETACH DELETE marker
