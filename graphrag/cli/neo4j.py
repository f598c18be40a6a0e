"""``graphrag neo4j start|stop|status``: the local Neo4j server as a one-line-per-action CLI.

Failures the user can fix (no Java, port taken, Maven unreachable...) arrive as
``GraphRagError`` and leave as one line on stderr with exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from dataclasses import asdict
from functools import wraps
from typing import ParamSpec, TypeVar

import click

from graphrag.config import Settings
from graphrag.errors import GraphRagError
from graphrag.neo4j_local import process
from graphrag.neo4j_local.process import Outcome, Status

P = ParamSpec("P")
R = TypeVar("R")
EXIT_ERROR = 2
EXIT_STOPPED = 3  # LSB's "program is not running", so scripts can test `graphrag neo4j status`

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")


def one_line_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a GraphRagError into ``Error: <code>: <message>`` on stderr and exit code 2."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except GraphRagError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(EXIT_ERROR)

    return wrapper


def _describe(status: Status) -> str:
    if status.state == "stopped":
        return f"Neo4j is not running (home {status.home})" + (f"; {status.note}" if status.note else "")
    head = {
        "running": "Neo4j {version} is running",
        "starting": "Neo4j {version} is starting (Bolt not answering yet)",
        "auth_failed": "Neo4j {version} is running but rejects the configured credentials",
    }[status.state].format(version=status.version)
    return (
        f"{head} (pid {status.pid})\n  Bolt:    {status.bolt}\n  Browser: {status.browser}\n"
        f"  Home:    {status.home}\n  Log:     {status.log}" + (f"\n  Note:    {status.note}" if status.note else "")
    )


def _emit_outcome(outcome: Outcome, as_json: bool, text: str) -> None:
    if as_json:
        click.echo(json.dumps(asdict(outcome), sort_keys=True))
    else:
        click.echo(text)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def neo4j() -> None:
    """Run a local Neo4j 5.26 Community server (no Docker) under $GRAPHRAG_HOME/neo4j.

    Bolt on NEO4J_URI (127.0.0.1:7687), HTTP and Neo4j Browser on NEO4J_HTTP_PORT (7474): /browser/.
    The first start fetches the jars from Maven Central (Java 17+ and mvn needed).

    \b
    Example:
        graphrag neo4j start && graphrag neo4j status
    """


@neo4j.command()
@json_option
@one_line_errors
def start(as_json: bool) -> None:
    """Start the server and return once Bolt and Browser answer; a no-op if it already runs.

    The first start downloads about 140 MB of jars with Maven (what it fetches is shown on
    stderr as it goes) and sets the password from NEO4J_PASSWORD; later starts take seconds.
    Waits up to 120 s for both.

    \b
    Example:
        graphrag neo4j start
        GRAPHRAG_HOME=/srv/graphrag graphrag neo4j start --json
    """
    outcome = process.start(Settings(), progress=_fetch_progress())
    if outcome.action == "already_running":
        text = f"Neo4j is already running (pid {outcome.pid}): {outcome.status.bolt}, {outcome.status.browser}"
    else:
        fetched = " (jars fetched with Maven)" if outcome.downloaded else ""
        text = (
            f"Neo4j {outcome.status.version} started in {outcome.seconds:.1f} s{fetched} (pid {outcome.pid})\n"
            f"  Bolt:    {outcome.status.bolt}\n  Browser: {outcome.status.browser}\n"
            f"  Log:     {outcome.status.log}"
        )
    _emit_outcome(outcome, as_json, text)


def _fetch_progress() -> Callable[[str, bool], None]:
    """What the first start fetches, on stderr (stdout keeps the outcome, JSON with --json): on a terminal one
    line rewritten per file; elsewhere (a log, CI) only the lines that stay."""
    terminal = sys.stderr.isatty()

    def show(line: str, transient: bool) -> None:
        if transient and terminal:
            width = shutil.get_terminal_size().columns - 1
            click.echo(f"\r\x1b[K  {line}"[: width + 4], err=True, nl=False)
        elif not transient:
            click.echo(("\r\x1b[K" if terminal else "") + line, err=True)

    return show


@neo4j.command()
@json_option
@one_line_errors
def stop(as_json: bool) -> None:
    """Stop the server cleanly (SIGTERM, SIGKILL after 60 s); a no-op if it is not running.

    \b
    Example:
        graphrag neo4j stop
    """
    outcome = process.stop(Settings())
    if outcome.action == "not_running":
        text = "Neo4j is not running; nothing to stop"
    else:
        how = "killed after the SIGTERM grace period" if outcome.killed else "stopped"
        text = f"Neo4j (pid {outcome.pid}) {how} in {outcome.seconds:.1f} s"
    _emit_outcome(outcome, as_json, text)


@neo4j.command()
@json_option
@one_line_errors
def status(as_json: bool) -> None:
    """Say whether the server runs and answers Bolt. Exit code 0 if running, 3 if not.

    \b
    Example:
        graphrag neo4j status
        graphrag neo4j status --json | jq .state
    """
    current = process.status(Settings())
    click.echo(json.dumps(asdict(current), sort_keys=True) if as_json else _describe(current))
    if current.state != "running":
        sys.exit(EXIT_STOPPED if current.state == "stopped" else 1)
