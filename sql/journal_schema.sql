-- Whether the journal's schema exists in this database (the migration applies only to an absent one).
-- Parameters: none
SELECT to_regnamespace('retrieval') IS NOT NULL AS present
