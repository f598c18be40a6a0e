// Waits until the full-text indexes hold every write committed so far (they are eventually consistent:
// updated after commit, off the writing transaction), so text search sees an ingest once it returns.
// Parameters: none.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
