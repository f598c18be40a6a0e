-- Creates the journal's two roles, NOLOGIN, with exactly their grants, and refuses to commit when either
-- role can do anything more: an inherited or PUBLIC privilege, a membership, a schema CREATE, access to an
-- unrelated table, or a journal object that lost its row-level security, security_invoker or fixed search_path.
-- Run it once, after migrations/001-retrieval-observations.sql, as the migration owner (who needs CREATEROLE):
--   graphrag observations provision     (or: psql -X --no-password -v ON_ERROR_STOP=1 -f sql/provision-observation-roles.sql)
-- Roles that already exist stop it (CREATE ROLE fails): inspect them, never adopt them silently.
-- Then, before anything logs in as them: \password retrieval_observation_runtime; ALTER ROLE ... LOGIN.
-- Parameters: none

BEGIN;

CREATE ROLE retrieval_observation_runtime NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEROLE NOCREATEDB NOREPLICATION;
GRANT USAGE ON SCHEMA retrieval TO retrieval_observation_runtime;
GRANT SELECT, INSERT ON retrieval.observation TO retrieval_observation_runtime;
GRANT SELECT, INSERT, UPDATE ON retrieval.citation_feedback TO retrieval_observation_runtime;
GRANT SELECT ON retrieval.observation_export TO retrieval_observation_runtime;
GRANT EXECUTE ON FUNCTION retrieval.expire_observations() TO retrieval_observation_runtime;

CREATE ROLE retrieval_observation_monitor NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEROLE NOCREATEDB NOREPLICATION;
GRANT USAGE ON SCHEMA retrieval TO retrieval_observation_monitor;
GRANT EXECUTE ON FUNCTION retrieval.maintenance_status() TO retrieval_observation_monitor;

DO $$
DECLARE
    problems text[] := '{}';
    expected jsonb := jsonb_build_object(
        'retrieval_observation_runtime', jsonb_build_object(
            'tables', jsonb_build_object(
                'retrieval.observation', jsonb_build_array('SELECT', 'INSERT'),
                'retrieval.citation_feedback', jsonb_build_array('SELECT', 'INSERT', 'UPDATE'),
                'retrieval.observation_export', jsonb_build_array('SELECT')
            ),
            'functions', jsonb_build_array('retrieval.expire_observations()')
        ),
        'retrieval_observation_monitor', jsonb_build_object(
            'tables', '{}'::jsonb,
            'functions', jsonb_build_array('retrieval.maintenance_status()')
        )
    );
    role_name text;
    relation record;
    func record;
    schema_name text;
    privilege text;
    allowed jsonb;
BEGIN
    FOR role_name IN SELECT jsonb_object_keys(expected) LOOP
        -- the role itself: no attribute beyond an ordinary NOLOGIN role, member of nothing
        IF EXISTS (
            SELECT 1 FROM pg_roles
            WHERE rolname = role_name
              AND (rolsuper OR rolbypassrls OR rolcreaterole OR rolcreatedb OR rolreplication OR rolcanlogin)
        ) THEN
            problems := problems || format('%s has an attribute beyond NOLOGIN NOSUPERUSER NOBYPASSRLS', role_name);
        END IF;
        IF EXISTS (SELECT 1 FROM pg_auth_members WHERE member = role_name::regrole) THEN
            problems := problems || format('%s is a member of another role', role_name);
        END IF;
        IF has_database_privilege(role_name, current_database(), 'CREATE') THEN
            problems := problems || format('%s may create schemas in this database', role_name);
        END IF;
        FOR schema_name IN
            SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'
        LOOP
            IF has_schema_privilege(role_name, schema_name, 'CREATE') THEN
                problems := problems || format('%s may create objects in schema %s', role_name, schema_name);
            END IF;
        END LOOP;
        -- every table, view and sequence of the database: only the expected privileges, none by column
        FOR relation IN
            SELECT c.oid, format('%s.%s', n.nspname, c.relname) AS name
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
              AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_toast%'
        LOOP
            allowed := coalesce(expected -> role_name -> 'tables' -> relation.name, '[]'::jsonb);
            FOREACH privilege IN ARRAY ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'] LOOP
                IF has_table_privilege(role_name, relation.oid, privilege) <> (allowed ? privilege) THEN
                    problems := problems || format('%s: %s %s is %s', role_name, privilege, relation.name,
                        CASE WHEN allowed ? privilege THEN 'missing' ELSE 'granted' END);
                END IF;
                IF privilege IN ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES') AND NOT allowed ? privilege
                   AND has_any_column_privilege(role_name, relation.oid, privilege) THEN
                    problems := problems || format('%s: %s on columns of %s is granted', role_name, privilege, relation.name);
                END IF;
            END LOOP;
        END LOOP;
        -- every function of the journal's schema: EXECUTE only on the expected one
        FOR func IN
            SELECT p.oid, format('retrieval.%s(%s)', p.proname, pg_get_function_identity_arguments(p.oid)) AS name
            FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'retrieval'
        LOOP
            IF has_function_privilege(role_name, func.oid, 'EXECUTE')
               <> (expected -> role_name -> 'functions') ? func.name THEN
                problems := problems || format('%s: EXECUTE on %s is %s', role_name, func.name,
                    CASE WHEN (expected -> role_name -> 'functions') ? func.name THEN 'missing' ELSE 'granted' END);
            END IF;
        END LOOP;
        IF NOT has_schema_privilege(role_name, 'retrieval', 'USAGE') THEN
            problems := problems || format('%s lacks USAGE on schema retrieval', role_name);
        END IF;
    END LOOP;

    -- nothing of the journal is granted to PUBLIC (a function without an ACL is executable by PUBLIC)
    IF EXISTS (
        SELECT 1 FROM pg_namespace, aclexplode(nspacl) a WHERE nspname = 'retrieval' AND a.grantee = 0
    ) THEN
        problems := problems || 'schema retrieval grants a privilege to PUBLIC'::text;
    END IF;
    FOR relation IN
        SELECT format('retrieval.%s', c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'retrieval' AND EXISTS (SELECT 1 FROM aclexplode(c.relacl) a WHERE a.grantee = 0)
    LOOP
        problems := problems || format('%s grants a privilege to PUBLIC', relation.name);
    END LOOP;
    FOR func IN
        SELECT format('retrieval.%s', p.proname) AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'retrieval'
          AND (p.proacl IS NULL OR EXISTS (SELECT 1 FROM aclexplode(p.proacl) a WHERE a.grantee = 0))
    LOOP
        problems := problems || format('%s is executable by PUBLIC', func.name);
    END LOOP;

    -- the journal's own guarantees, as the migration left them
    FOR relation IN
        SELECT format('retrieval.%s', c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'retrieval' AND c.relkind = 'r' AND NOT (c.relrowsecurity AND c.relforcerowsecurity)
    LOOP
        problems := problems || format('%s lacks enabled and forced row-level security', relation.name);
    END LOOP;
    IF NOT EXISTS (
        SELECT 1 FROM pg_class WHERE oid = 'retrieval.observation_export'::regclass
          AND 'security_invoker=true' = ANY (reloptions)
    ) THEN
        problems := problems || 'retrieval.observation_export is not security_invoker'::text;
    END IF;
    FOR func IN
        SELECT format('retrieval.%s', p.proname) AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'retrieval' AND p.prosecdef
          AND (p.proowner <> n.nspowner OR NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (p.proconfig), false))
    LOOP
        problems := problems || format('%s lost its owner or fixed search_path', func.name);
    END LOOP;

    IF cardinality(problems) > 0 THEN
        RAISE EXCEPTION 'refusing to provision the observation roles: %', array_to_string(problems, '; ');
    END IF;
END
$$;

COMMIT;
