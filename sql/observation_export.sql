-- The caller's export candidates: its unexpired observations with text still in its window, one per query
-- fingerprint (the latest snapshot), newest first, at most 1,000. expires_at is the earlier deadline.
-- Parameters: %(account)s
SELECT observation_id, query_text, tool, search_mode, observed_at, expires_at, returned_entities
FROM (
    SELECT DISTINCT ON (query_hash) *
    FROM retrieval.observation_export
    WHERE account_id = %(account)s
    ORDER BY query_hash, observed_at DESC, observation_id DESC
) AS latest
ORDER BY observed_at DESC, observation_id
LIMIT 1000
