-- Records one search's returned ranking: one row per returned hit (or one 'none' row for an empty answer).
-- Row-level security refuses rows of another account, already expired, or observed more than five minutes
-- ahead of the database clock. The hit arrays are parallel, in rank order.
-- Parameters: %(observation_id)s %(account)s %(observed_at)s %(tool)s %(search_mode)s %(query_hash)s
--   %(query_text)s %(text_expires_at)s %(returned_count)s %(omitted_count)s %(available_count)s
--   %(corpus_version)s %(embedder_version)s %(service_version)s
--   %(hit_ids)s %(hit_kinds)s %(hit_ranks)s %(scores)s %(content_sha256)s %(retrieved_sha256)s
--   %(returned_sha256)s %(truncated)s
INSERT INTO retrieval.observation (
    observation_id, hit_id, account_id, observed_at, tool, search_mode, query_hash, query_text, text_expires_at,
    hit_kind, hit_rank, score, content_sha256, retrieved_excerpt_sha256, returned_excerpt_sha256,
    excerpt_truncated, returned_count, omitted_count, available_count, corpus_version, embedder_version,
    service_version
)
SELECT
    %(observation_id)s, h.hit_id, %(account)s, %(observed_at)s, %(tool)s, %(search_mode)s, %(query_hash)s,
    %(query_text)s, %(text_expires_at)s, h.hit_kind, h.hit_rank, h.score, h.content_sha256, h.retrieved_sha256,
    h.returned_sha256, h.truncated, %(returned_count)s, %(omitted_count)s, %(available_count)s,
    %(corpus_version)s, %(embedder_version)s, %(service_version)s
FROM unnest(
    %(hit_ids)s::text[], %(hit_kinds)s::text[], %(hit_ranks)s::integer[], %(scores)s::double precision[],
    %(content_sha256)s::bytea[], %(retrieved_sha256)s::bytea[], %(returned_sha256)s::bytea[], %(truncated)s::boolean[]
) AS h (hit_id, hit_kind, hit_rank, score, content_sha256, retrieved_sha256, returned_sha256, truncated)
