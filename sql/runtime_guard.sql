-- Whether the connected role may use the journal: true only for a role that row-level security binds, i.e. not
-- a superuser, without BYPASSRLS, and not a member of the role owning the journal (whose maintenance policy
-- sees every account's rows). Runtime writes and reads fail closed on false.
-- Parameters: none
SELECT NOT (r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, c.relowner, 'MEMBER')) AS bound
FROM pg_roles r, pg_class c
WHERE r.rolname = current_user AND c.oid = 'retrieval.observation'::regclass
