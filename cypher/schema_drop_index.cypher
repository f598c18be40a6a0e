// Drops one index by name (a full-text index whose analyzer or fields changed, before it is created again).
// Parameters: $index (the index name).
DROP INDEX $index IF EXISTS
