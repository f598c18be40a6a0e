// Waits until every index is online (a new full-text index fills from the existing data in the background).
// Parameters: none.
CALL db.awaitIndexes(600)
