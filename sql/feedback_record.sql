-- Records whether the caller cited one hit of one of its own unexpired observations (cited may be null:
-- unknown). Row-level security hides every other account's and every expired row, so no row comes back when
-- the hit is not the caller's, is gone, or is not written yet; the observation's deadline never moves.
-- Parameters: %(observation_id)s %(hit_id)s %(account)s %(cited)s
INSERT INTO retrieval.citation_feedback (observation_id, hit_id, account_id, cited)
SELECT o.observation_id, o.hit_id, o.account_id, %(cited)s
FROM retrieval.observation o
WHERE o.observation_id = %(observation_id)s AND o.hit_id = %(hit_id)s AND o.account_id = %(account)s
ON CONFLICT (observation_id, hit_id)
DO UPDATE SET cited = excluded.cited, updated_at = statement_timestamp()
RETURNING observation_id
