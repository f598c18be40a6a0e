"""`graphrag observations migrate | provision` against the real disposable PostgreSQL: the migration applies once,
its checksum is printed, and provisioning refuses (creating nothing) when a role could do more than its grants."""

from __future__ import annotations

import os
from collections.abc import Iterator

import psycopg
import pytest
from click.testing import CliRunner

from graphrag.cli import main
from graphrag.observations.sql import migration
from tests.observations.conftest import need_cluster
from tests.observations.database import DATABASE, MONITOR, OWNER, RUNTIME, NoTestCluster, admin, empty_database

ROLES = f"SELECT rolname FROM pg_roles WHERE rolname IN ('{RUNTIME}', '{MONITOR}') ORDER BY rolname"


@pytest.fixture
def owner_env() -> Iterator[dict[str, str]]:
    """libpq's environment for the owner of an empty journal database (what an operator exports)."""
    try:
        empty_database()
    except NoTestCluster as exc:
        need_cluster(exc)
    yield {
        "PGHOST": "127.0.0.1",
        "PGPORT": os.environ["GRAPHRAG_TEST_POSTGRES_PORT"],
        "PGDATABASE": DATABASE,
        "PGUSER": OWNER,
    }


def run(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["observations", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def test_migrate_applies_once_and_prints_the_checksum_then_provision_creates_nologin_roles(
    owner_env: dict[str, str],
) -> None:
    assert run(owner_env, "migrate") == (
        0,
        f"applied migrations/001-retrieval-observations.sql sha256 {migration('001-retrieval-observations').sha256}\n",
        "",
    )
    code, _, error = run(owner_env, "migrate")
    assert code == 2 and error.startswith("error: invalid_argument: schema retrieval already exists")

    assert run(owner_env, "provision")[0] == 0
    with admin() as connection:
        assert connection.execute(ROLES.replace("rolname FROM", "rolname, rolcanlogin FROM")).fetchall() == [
            (MONITOR, False),
            (RUNTIME, False),
        ]
    code, _, error = run(owner_env, "provision")  # roles that exist are a stop condition, never adopted
    assert code == 2 and "already exists" in error


@pytest.mark.parametrize(
    ("grant", "problem"),
    [
        ("GRANT SELECT ON retrieval.maintenance_state TO PUBLIC", "SELECT retrieval.maintenance_state is granted"),
        (
            "GRANT EXECUTE ON FUNCTION retrieval.maintenance_status() TO PUBLIC",
            "retrieval.maintenance_status is executable by PUBLIC",
        ),
        (
            "CREATE TABLE public.accounts (id int); GRANT SELECT ON public.accounts TO PUBLIC",
            "SELECT public.accounts is granted",
        ),
        (
            "ALTER TABLE retrieval.citation_feedback NO FORCE ROW LEVEL SECURITY",
            "retrieval.citation_feedback lacks enabled and forced",
        ),
    ],
    ids=["PUBLIC table", "PUBLIC function", "unrelated table", "RLS not forced"],
)
def test_provision_refuses_unexpected_privileges_and_creates_nothing(
    owner_env: dict[str, str], grant: str, problem: str
) -> None:
    assert run(owner_env, "migrate")[0] == 0
    with psycopg.connect(
        f"host=127.0.0.1 port={owner_env['PGPORT']} dbname={DATABASE} user={OWNER}", autocommit=True
    ) as owner:
        owner.execute(grant)
    code, _, error = run(owner_env, "provision")
    assert code == 2 and error.startswith("error: invalid_argument: refusing to provision the observation roles")
    assert problem in error
    with admin() as connection:
        assert connection.execute(ROLES).fetchall() == []
