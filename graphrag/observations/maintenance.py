"""The owner's and the monitor's side: apply the migration, provision the roles, read the maintenance status.

These connect with the operator's own credentials: ``conninfo`` "" means libpq's environment (``PGHOST``,
``PGPORT``, ``PGDATABASE``, ``PGUSER``, ``PGPASSWORD`` or ``~/.pgpass``), as ``psql`` would, so no owner
password sits in the service's configuration. The scripts hold their own ``BEGIN``/``COMMIT``: they apply
whole or not at all.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import dict_row

from graphrag.errors import GraphRagError, InvalidArgument
from graphrag.observations.journal import JournalUnavailable, connection_options
from graphrag.observations.model import MaintenanceStatus
from graphrag.observations.sql import MIGRATIONS, PROVISION, SqlFile, migration, query

OWNER_TIMEOUT_SECONDS = 60.0  # a migration may wait for locks; the runtime's 2 s does not apply here


class Refused(GraphRagError):
    """The database refused a migration or provisioning (the script's own message says why)."""

    code = "invalid_argument"


def _connect(conninfo: str, timeout: float) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(conninfo, autocommit=True, **connection_options(timeout))
    except psycopg.Error as exc:
        raise JournalUnavailable(f"cannot connect to the journal's database ({type(exc).__name__})") from None


def _run_script(conninfo: str, script: SqlFile) -> None:
    with _connect(conninfo, OWNER_TIMEOUT_SECONDS) as connection:
        try:
            connection.execute(script.statement)
        except psycopg.errors.RaiseException as exc:  # the provisioning check's own list of problems
            raise Refused(exc.diag.message_primary or "refused") from None
        except psycopg.Error as exc:
            raise Refused(f"{script.name}: {exc.diag.message_primary or type(exc).__name__}") from None


def migrate(conninfo: str) -> list[tuple[str, str]]:
    """Apply each migration to a database without the ``retrieval`` schema; (name, sha256) of each applied."""
    with _connect(conninfo, OWNER_TIMEOUT_SECONDS) as connection:
        row = connection.execute(query("journal_schema").statement).fetchone()
    if row is not None and row[0]:
        raise InvalidArgument(
            "schema retrieval already exists: a migration applies once to an absent schema; inspect its owner, "
            "version and grants (docs/observations.md) instead of migrating again"
        )
    applied = []
    for name in MIGRATIONS:
        script = migration(name)
        _run_script(conninfo, script)
        applied.append((f"migrations/{name}.sql", script.sha256))
    return applied


def provision(conninfo: str) -> None:
    """Create the runtime and monitor roles (NOLOGIN) with exactly their grants, or change nothing."""
    _run_script(conninfo, query(PROVISION))


def status(conninfo: str) -> MaintenanceStatus:
    """The monitor's view (``retrieval.maintenance_status()``)."""
    with _connect(conninfo, OWNER_TIMEOUT_SECONDS) as connection:
        try:
            row = connection.cursor(row_factory=dict_row).execute(query("maintenance_status").statement).fetchone()
        except psycopg.Error as exc:
            raise JournalUnavailable(f"the maintenance status failed ({type(exc).__name__})") from None
    if row is None:
        raise JournalUnavailable("the maintenance status returned no row")
    return MaintenanceStatus.model_validate(row)
