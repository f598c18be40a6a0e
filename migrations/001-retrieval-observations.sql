-- Migration 001: the retrieval observations journal (docs/observations.md). Immutable once applied: a later
-- change of the schema is a new migration file, never an edit of this one.
--
-- Apply it once, as the migration owner, to an absent schema `retrieval`:
--   graphrag observations migrate      (or: psql -X --no-password -v ON_ERROR_STOP=1 -f migrations/001-retrieval-observations.sql)
-- It grants nothing. The runtime role gets exactly these privileges, from sql/provision-observation-roles.sql:
--   USAGE ON SCHEMA retrieval
--   SELECT, INSERT ON retrieval.observation
--   SELECT, INSERT, UPDATE ON retrieval.citation_feedback
--   SELECT ON retrieval.observation_export
--   EXECUTE ON FUNCTION retrieval.expire_observations()
-- and the monitor role only USAGE ON SCHEMA retrieval and EXECUTE ON FUNCTION retrieval.maintenance_status().
--
-- Lifetime: every row lives 90 x 24 hours from observed_at (2160 hours), whatever happens to it later.
-- Row-level security is enabled and forced on every table; the migration owner sees every row through its
-- maintenance policy (the two SECURITY DEFINER functions run as the owner), every other role only its own
-- account's unexpired rows. The account is transaction-local: SELECT set_config('retrieval.account', ..., true).

BEGIN;

CREATE SCHEMA retrieval;

-- One row per returned hit of one search (observation_id, hit_id); an answer without hits is one row with
-- hit_kind 'none' and hit_id ''. The query, account, versions and counts repeat on every row of a search.
CREATE TABLE retrieval.observation (
    observation_id uuid NOT NULL,
    hit_id text NOT NULL CHECK (octet_length(hit_id) <= 2100),
    account_id text NOT NULL CHECK (char_length(account_id) BETWEEN 1 AND 1100),
    observed_at timestamptz NOT NULL,
    tool text NOT NULL CHECK (tool IN ('pack_search', 'pack_context')),
    search_mode text NOT NULL CHECK (search_mode IN ('hybrid', 'vector', 'text')),
    query_hash bytea NOT NULL CHECK (octet_length(query_hash) = 32),
    query_text text CHECK (
        char_length(query_text) BETWEEN 1 AND 500
        AND query_text !~ '[[:alnum:]._%+-]+@[[:alnum:]-]+\.[[:alnum:].-]+'
        AND query_text !~ '[0-9]{9,}'
    ),
    text_expires_at timestamptz CHECK (text_expires_at > observed_at AND text_expires_at <= observed_at + interval '2160 hours'),
    hit_kind text NOT NULL CHECK (hit_kind IN ('entity', 'passage', 'none')),
    hit_rank integer NOT NULL CHECK (hit_rank >= 0),
    score double precision,
    content_sha256 bytea CHECK (octet_length(content_sha256) = 32),
    retrieved_excerpt_sha256 bytea CHECK (octet_length(retrieved_excerpt_sha256) = 32),
    returned_excerpt_sha256 bytea CHECK (octet_length(returned_excerpt_sha256) = 32),
    excerpt_truncated boolean NOT NULL,
    returned_count integer NOT NULL CHECK (returned_count >= 0),
    omitted_count integer NOT NULL CHECK (omitted_count >= 0),
    available_count integer NOT NULL CHECK (available_count >= 0),
    corpus_version text CHECK (char_length(corpus_version) <= 200),
    embedder_version text CHECK (char_length(embedder_version) <= 200),
    service_version text CHECK (char_length(service_version) <= 200),
    PRIMARY KEY (observation_id, hit_id),
    UNIQUE (observation_id, hit_id, account_id),
    CHECK ((hit_kind = 'none') = (hit_id = '')),
    CHECK ((hit_kind = 'none') = (hit_rank = 0)),
    CHECK (query_text IS NULL OR text_expires_at IS NOT NULL)
);
CREATE INDEX observation_expiry ON retrieval.observation (observed_at);
CREATE INDEX observation_text_expiry ON retrieval.observation (text_expires_at) WHERE query_text IS NOT NULL;
CREATE INDEX observation_account ON retrieval.observation (account_id, observed_at);

-- Whether the caller cited a hit it was given; bound by the composite key to that exact hit of that account.
CREATE TABLE retrieval.citation_feedback (
    observation_id uuid NOT NULL,
    hit_id text NOT NULL CHECK (hit_id <> ''),
    account_id text NOT NULL,
    cited boolean,
    recorded_at timestamptz NOT NULL DEFAULT statement_timestamp(),
    updated_at timestamptz NOT NULL DEFAULT statement_timestamp(),
    PRIMARY KEY (observation_id, hit_id),
    FOREIGN KEY (observation_id, hit_id, account_id)
        REFERENCES retrieval.observation (observation_id, hit_id, account_id) ON DELETE CASCADE
);

-- The last committed cleanup: one row, updated in the transaction of every successful expire_observations().
CREATE TABLE retrieval.maintenance_state (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    last_success_at timestamptz,
    last_deleted integer,
    last_scrubbed integer
);
INSERT INTO retrieval.maintenance_state (singleton) VALUES (true);

ALTER TABLE retrieval.observation ENABLE ROW LEVEL SECURITY;
ALTER TABLE retrieval.observation FORCE ROW LEVEL SECURITY;
ALTER TABLE retrieval.citation_feedback ENABLE ROW LEVEL SECURITY;
ALTER TABLE retrieval.citation_feedback FORCE ROW LEVEL SECURITY;
ALTER TABLE retrieval.maintenance_state ENABLE ROW LEVEL SECURITY;
ALTER TABLE retrieval.maintenance_state FORCE ROW LEVEL SECURITY;

-- Ordinary roles: their own account (transaction-local), unexpired rows only; new rows neither expired nor
-- more than five minutes ahead of the database clock.
CREATE POLICY observation_read ON retrieval.observation FOR SELECT
    USING (
        account_id = current_setting('retrieval.account', true)
        AND observed_at > statement_timestamp() - interval '2160 hours'
    );
CREATE POLICY observation_insert ON retrieval.observation FOR INSERT
    WITH CHECK (
        account_id = current_setting('retrieval.account', true)
        AND observed_at > statement_timestamp() - interval '2160 hours'
        AND observed_at <= statement_timestamp() + interval '5 minutes'
    );
-- Feedback is visible and writable only while its hit is (the subquery is filtered by the policies above).
CREATE POLICY feedback_read ON retrieval.citation_feedback FOR SELECT
    USING (
        account_id = current_setting('retrieval.account', true)
        AND EXISTS (
            SELECT 1 FROM retrieval.observation o
            WHERE o.observation_id = citation_feedback.observation_id AND o.hit_id = citation_feedback.hit_id
        )
    );
CREATE POLICY feedback_insert ON retrieval.citation_feedback FOR INSERT
    WITH CHECK (
        account_id = current_setting('retrieval.account', true)
        AND EXISTS (
            SELECT 1 FROM retrieval.observation o
            WHERE o.observation_id = citation_feedback.observation_id AND o.hit_id = citation_feedback.hit_id
        )
    );
CREATE POLICY feedback_update ON retrieval.citation_feedback FOR UPDATE
    USING (
        account_id = current_setting('retrieval.account', true)
        AND EXISTS (
            SELECT 1 FROM retrieval.observation o
            WHERE o.observation_id = citation_feedback.observation_id AND o.hit_id = citation_feedback.hit_id
        )
    )
    WITH CHECK (account_id = current_setting('retrieval.account', true));

-- The migration owner's maintenance policies: it must see every account's expired rows to delete them.
DO $$
BEGIN
    EXECUTE format('CREATE POLICY observation_maintenance ON retrieval.observation TO %I USING (true) WITH CHECK (true)', current_user);
    EXECUTE format('CREATE POLICY feedback_maintenance ON retrieval.citation_feedback TO %I USING (true) WITH CHECK (true)', current_user);
    EXECUTE format('CREATE POLICY state_maintenance ON retrieval.maintenance_state TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;

-- Export candidates: one row per unexpired observation whose filtered text is still within its window.
-- security_invoker: the caller's row-level security applies, so an account sees only its own.
CREATE VIEW retrieval.observation_export WITH (security_invoker = true) AS
SELECT
    o.observation_id,
    o.account_id,
    o.tool,
    o.search_mode,
    o.query_hash,
    o.query_text,
    o.observed_at,
    least(o.observed_at + interval '2160 hours', o.text_expires_at) AS expires_at,
    coalesce(array_agg(o.hit_id ORDER BY o.hit_rank) FILTER (WHERE o.hit_kind = 'entity'), '{}') AS returned_entities
FROM retrieval.observation o
WHERE o.query_text IS NOT NULL
  AND o.text_expires_at > statement_timestamp()
  AND o.observed_at > statement_timestamp() - interval '2160 hours'
GROUP BY o.observation_id, o.account_id, o.tool, o.search_mode, o.query_hash, o.query_text, o.observed_at,
         o.text_expires_at;

-- Physical cleanup, bounded: up to 5,000 expired rows (their feedback cascades) and up to 5,000 expired texts
-- scrubbed; the state row is updated in the same transaction. Returns only how many rows it changed.
CREATE FUNCTION retrieval.expire_observations() RETURNS bigint
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    deleted bigint;
    scrubbed bigint;
BEGIN
    WITH doomed AS (
        SELECT observation_id, hit_id FROM retrieval.observation
        WHERE observed_at <= statement_timestamp() - interval '2160 hours'
        ORDER BY observed_at
        LIMIT 5000
        FOR UPDATE SKIP LOCKED
    )
    DELETE FROM retrieval.observation o USING doomed d
    WHERE o.observation_id = d.observation_id AND o.hit_id = d.hit_id;
    GET DIAGNOSTICS deleted = ROW_COUNT;

    WITH stale AS (
        SELECT observation_id, hit_id FROM retrieval.observation
        WHERE query_text IS NOT NULL AND text_expires_at <= statement_timestamp()
        ORDER BY text_expires_at
        LIMIT 5000
        FOR UPDATE SKIP LOCKED
    )
    UPDATE retrieval.observation o SET query_text = NULL FROM stale s
    WHERE o.observation_id = s.observation_id AND o.hit_id = s.hit_id;
    GET DIAGNOSTICS scrubbed = ROW_COUNT;

    UPDATE retrieval.maintenance_state
    SET last_success_at = statement_timestamp(), last_deleted = deleted, last_scrubbed = scrubbed
    WHERE singleton;
    RETURN deleted + scrubbed;
END
$$;

-- For the monitor role: the global backlog (the owner sees past every account's row-level security), the last
-- committed cleanup and the alarm: no success yet, success older than 30 minutes or more than one minute ahead
-- of the clock, or anything overdue.
CREATE FUNCTION retrieval.maintenance_status()
RETURNS TABLE (
    expired_records bigint,
    expired_texts bigint,
    oldest_overdue_seconds double precision,
    last_success_at timestamptz,
    alarm boolean
)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    WITH backlog AS (
        SELECT
            count(*) FILTER (WHERE observed_at + interval '2160 hours' <= statement_timestamp()) AS expired_records,
            count(*) FILTER (WHERE query_text IS NOT NULL AND text_expires_at <= statement_timestamp()) AS expired_texts,
            coalesce(greatest(0, extract(epoch FROM statement_timestamp() - least(
                min(observed_at + interval '2160 hours'),
                min(text_expires_at) FILTER (WHERE query_text IS NOT NULL)
            ))), 0)::double precision AS oldest_overdue_seconds
        FROM retrieval.observation
    )
    SELECT
        b.expired_records,
        b.expired_texts,
        b.oldest_overdue_seconds,
        s.last_success_at,
        s.last_success_at IS NULL
            OR s.last_success_at < statement_timestamp() - interval '30 minutes'
            OR s.last_success_at > statement_timestamp() + interval '1 minute'
            OR b.expired_records > 0
            OR b.expired_texts > 0
    FROM backlog b CROSS JOIN retrieval.maintenance_state s
$$;

REVOKE ALL ON FUNCTION retrieval.expire_observations() FROM PUBLIC;
REVOKE ALL ON FUNCTION retrieval.maintenance_status() FROM PUBLIC;

COMMIT;
