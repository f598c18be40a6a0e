"""``graphrag observations``: a thin click shell over the journal's maintenance, cleanup and export.

``migrate`` and ``provision`` connect as the migration owner through libpq's environment (``PGHOST``,
``PGDATABASE``, ``PGUSER``, ``PGPASSWORD`` or ``~/.pgpass``); ``expire`` and ``export`` as the runtime role
(``GRAPHRAG_OBSERVATIONS_DSN``); ``status`` as the monitor role (``GRAPHRAG_OBSERVATIONS_MONITOR_DSN``, else
libpq's environment). Exit 0 on success, 1 when ``status`` raises its alarm, 2 on a bad invocation, an
unreachable database or a refusal.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import NoReturn

import click

from graphrag.config import Settings
from graphrag.errors import GraphRagError, InvalidArgument
from graphrag.observations import maintenance
from graphrag.observations.journal import Journal
from graphrag.observations.model import ExportFile
from graphrag.server.access import ProjectTokenVerifier, read_tokens_file, verified_account

ALARM = 1
FAILED = 2


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(FAILED)


def _runtime_dsn(settings: Settings) -> str:
    if settings.graphrag_observations_dsn is None:
        _fail("GRAPHRAG_OBSERVATIONS_DSN is not set: the runtime role's connection (docs/observations.md)")
    return settings.graphrag_observations_dsn.get_secret_value()


@click.group(name="observations", context_settings={"help_option_names": ["-h", "--help"]})
def observations() -> None:
    """The retrieval observations journal on PostgreSQL: schema, roles, cleanup, monitoring and export.

    \b
    Example:
        PGDATABASE=graphrag PGUSER=journal_owner graphrag observations migrate
        graphrag observations status
    """


@observations.command()
def migrate() -> None:
    """Apply the journal's migration to the database of libpq's environment, as its owner, once.

    Prints each applied file with its sha256, for the deployment record.

    \b
    Example:
        PGHOST=db.internal PGDATABASE=graphrag PGUSER=journal_owner graphrag observations migrate
    """
    try:
        applied = maintenance.migrate("")
    except GraphRagError as exc:
        _fail(str(exc))
    for name, checksum in applied:
        click.echo(f"applied {name} sha256 {checksum}")


@observations.command()
def provision() -> None:
    """Create the runtime and monitor roles (NOLOGIN) with exactly their grants, after `migrate`.

    Refuses, changing nothing, when either role could do more (inherited or PUBLIC privileges).

    \b
    Example:
        PGDATABASE=graphrag PGUSER=journal_owner graphrag observations provision
    """
    try:
        maintenance.provision("")
    except GraphRagError as exc:
        _fail(str(exc))
    click.echo("created retrieval_observation_runtime and retrieval_observation_monitor (NOLOGIN)")


@observations.command()
def expire() -> None:
    """Run one cleanup batch (as `graphrag serve` does every 15 minutes); prints the rows changed.

    \b
    Example:
        graphrag observations expire     # from a system timer, every 15 minutes
    """
    with Journal(_runtime_dsn(Settings())) as journal:
        try:
            changed = journal.expire()
        except GraphRagError as exc:
            _fail(str(exc))
    click.echo(f"deleted or scrubbed {changed} rows")


@observations.command()
@click.option("--json", "as_json", is_flag=True, help="Print the status as one JSON object.")
def status(as_json: bool) -> None:
    """Print the monitor's view of the cleanup; exit 1 on alarm.

    Alarm: no successful cleanup yet, the last one older than 30 minutes or ahead of the clock, or anything
    overdue. A failing query exits 2: treat that as an alarm too.

    \b
    Example:
        GRAPHRAG_OBSERVATIONS_MONITOR_DSN=postgresql://monitor@db/graphrag graphrag observations status --json
    """
    monitor = Settings().graphrag_observations_monitor_dsn
    try:
        found = maintenance.status(monitor.get_secret_value() if monitor else "")
    except GraphRagError as exc:
        _fail(str(exc))
    if as_json:
        click.echo(found.model_dump_json())
    else:
        last = found.last_success_at.isoformat() if found.last_success_at else "never"
        click.echo(
            f"expired records {found.expired_records}, expired texts {found.expired_texts}, oldest overdue "
            f"{found.oldest_overdue_seconds:.0f} s, last cleanup {last}: {'ALARM' if found.alarm else 'ok'}"
        )
    if found.alarm:
        sys.exit(ALARM)


@observations.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
def export(out: Path) -> None:
    """Write the token owner's export candidates to OUT, a new file (mode 0600); prints only the count.

    The account comes from GRAPHRAG_EXPORT_TOKEN, verified against GRAPHRAG_TOKENS_FILE. Only its unexpired
    query texts, one per fingerprint (the latest), at most 1,000, each with its deadline (expiresAt): remove
    the file by then. `graphrag eval record OUT` runs its queries.

    \b
    Example:
        GRAPHRAG_EXPORT_TOKEN=... graphrag observations export /secure/candidates.json
    """
    settings = Settings()
    try:
        account = _exporting_account(settings)
        with Journal(_runtime_dsn(settings)) as journal:
            candidates = journal.export(account)
        _write_new(out, ExportFile(queries=candidates).model_dump_json(by_alias=True, indent=2))
    except GraphRagError as exc:
        _fail(str(exc))
    click.echo(f"exported {len(candidates)} candidates")


def _exporting_account(settings: Settings) -> str:
    if settings.graphrag_tokens_file is None or settings.graphrag_export_token is None:
        raise InvalidArgument("export needs GRAPHRAG_TOKENS_FILE and GRAPHRAG_EXPORT_TOKEN (the account's own token)")
    verifier = ProjectTokenVerifier(read_tokens_file(settings.graphrag_tokens_file))
    token = asyncio.run(verifier.verify_token(settings.graphrag_export_token.get_secret_value()))
    account = verified_account(token)
    if account is None:
        raise InvalidArgument("GRAPHRAG_EXPORT_TOKEN is not a token of GRAPHRAG_TOKENS_FILE")
    return account


def _write_new(path: Path, text: str) -> None:
    """Create ``path`` with mode 0600 and write ``text``; an existing file is never overwritten."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise InvalidArgument(f"{path} exists: export writes a new file only") from None
    except OSError as exc:
        raise InvalidArgument(f"{path} cannot be created: {exc.strerror}") from None
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
