"""A fresh journal database in the disposable test cluster (scripts/test-postgres.sh), shared by tests and bench.

The cluster listens on 127.0.0.1:$GRAPHRAG_TEST_POSTGRES_PORT with trust authentication; the database
``graphrag_disposable`` marks it as one the suite may wipe. ``fresh_journal`` drops the journal's database and
its roles, then builds them the way an operator does: an owner role, ``graphrag observations migrate`` and
``provision`` as that owner, and LOGIN for the two provisioned roles.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import psycopg

from graphrag.observations import maintenance

DATABASE = "graphrag_observations"
OWNER = "graphrag_journal_owner"
RUNTIME = "retrieval_observation_runtime"
MONITOR = "retrieval_observation_monitor"
MARKER = "graphrag_disposable"


class NoTestCluster(Exception):
    """The disposable cluster is not configured or does not answer."""


@dataclass(frozen=True)
class JournalDsns:
    admin: str  # the cluster's superuser, in the journal's database
    owner: str
    runtime: str
    monitor: str


def cluster_dsn(database: str = "postgres", user: str = "postgres") -> str:
    port = os.environ.get("GRAPHRAG_TEST_POSTGRES_PORT")
    if not port:
        raise NoTestCluster("GRAPHRAG_TEST_POSTGRES_PORT is not set (`make test` starts the cluster and sets it)")
    return f"host=127.0.0.1 port={port} dbname={database} user={user} connect_timeout=5"


def admin(database: str = "postgres") -> psycopg.Connection[tuple[object, ...]]:
    try:
        connection = psycopg.connect(cluster_dsn(database), autocommit=True)
    except psycopg.OperationalError as exc:
        raise NoTestCluster(f"the test PostgreSQL does not answer: {exc}") from exc
    marked = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [MARKER]).fetchone()
    if marked is None:
        connection.close()
        raise NoTestCluster(
            f"not the disposable test cluster (no database {MARKER}): start it with scripts/test-postgres.sh"
        )
    return connection


def drop_journal() -> None:
    with admin() as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        for role in (RUNTIME, MONITOR, OWNER):
            connection.execute(f"DROP ROLE IF EXISTS {role}")


def empty_database() -> str:
    """A new journal database with its owner role, nothing applied yet; the owner's DSN."""
    drop_journal()
    with admin() as connection:
        connection.execute(f"CREATE ROLE {OWNER} LOGIN CREATEROLE")
        connection.execute(f"CREATE DATABASE {DATABASE} OWNER {OWNER}")
    return cluster_dsn(DATABASE, OWNER)


def fresh_journal() -> JournalDsns:
    owner = empty_database()
    maintenance.migrate(owner)
    maintenance.provision(owner)
    with admin() as connection:
        connection.execute(f"ALTER ROLE {RUNTIME} LOGIN")
        connection.execute(f"ALTER ROLE {MONITOR} LOGIN")
    return JournalDsns(cluster_dsn(DATABASE), owner, cluster_dsn(DATABASE, RUNTIME), cluster_dsn(DATABASE, MONITOR))


def wipe(dsns: JournalDsns) -> None:
    """Every row gone and the cleanup state reset (the superuser passes row-level security)."""
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        connection.execute("TRUNCATE retrieval.citation_feedback, retrieval.observation")
        connection.execute("UPDATE retrieval.maintenance_state SET last_success_at = NULL")
