// Deletes every node and relationship: the test suite's clean slate. Never run by the service.
// Parameters: none.
MATCH (n)
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 5000 ROWS
