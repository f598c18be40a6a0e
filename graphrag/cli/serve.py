"""``graphrag serve``: the MCP server over stdio (desktop clients) or streamable HTTP (shared deployments).

Over HTTP without a tokens file every caller is the local user, so such a server listens on loopback
only; another address needs ``GRAPHRAG_TOKENS_FILE`` (or ``--allow-unauthenticated``, for a network the
operator already guards, and the server then warns in its log).
"""

from __future__ import annotations

import gc
import ipaddress
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from graphrag.cli.failing import fail
from graphrag.config import Settings
from graphrag.errors import GraphRagError
from graphrag.stores.graph import GraphStore

if TYPE_CHECKING:
    from graphrag.server.context import Services

log = logging.getLogger(__name__)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


@click.command("serve")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP only; not loopback: needs a tokens file.")
@click.option("--port", default=8765, show_default=True, type=int, help="HTTP only.")
@click.option(
    "--allow-unauthenticated",
    is_flag=True,
    help="HTTP only: listen on a non-loopback --host without GRAPHRAG_TOKENS_FILE (every caller is the local user).",
)
@click.option(
    "--watch",
    "watched",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="PACK",
    help="Ingest this pack inside the server, and again on every save (repeat for several packs).",
)
def serve(transport: str, host: str, port: int, allow_unauthenticated: bool, watched: tuple[Path, ...]) -> None:
    """Serve the MCP tools.

    \b
    Packs:   pack_context (call it first for a question), pack_search, pack_graph, pack_get, pack_catalog
    Memory:  search, save_memory, validate_memory, run_archivist
    Team sources (over HTTP with a GitHub App and a tokens file): github_connect, connect_source,
             reindex_source, disconnect_source, get_document, put_document

    \b
    Example:
        graphrag serve                                  # stdio, for a desktop client
        graphrag serve --transport http --port 8765     # http://127.0.0.1:8765/mcp, GET /health
        graphrag serve --watch examples/space-missions  # an edit is searchable well within a second
        GRAPHRAG_TOKENS_FILE=tokens.yaml graphrag serve --transport http --host 0.0.0.0
    """
    # A stdio client starts a server per session, so the start is kept short. It builds hundreds of thousands of
    # objects that all live (modules, classes, the search tables): collecting them would cost ~10% of it.
    gc.disable()
    # FastMCP's session state lives in py-key-value, whose runtime type checks (warnings only) cost its import,
    # on the first call, 0.08 s; the package documents this switch.
    os.environ.setdefault("PY_KEY_VALUE_DISABLE_BEARTYPE", "true")
    settings = Settings()
    open_to_all = transport == "http" and not is_loopback(host) and settings.graphrag_tokens_file is None
    if open_to_all and not allow_unauthenticated:
        fail(
            f"refusing to serve HTTP on {host} without GRAPHRAG_TOKENS_FILE: every caller would be the local user; "
            "set a tokens file (docs/memory.md), or bind 127.0.0.1"
        )
    from graphrag.logs import configure_logging
    from graphrag.server.app import create_server
    from graphrag.server.http import uvicorn_options

    configure_logging(settings)  # after fastmcp's import, which installs handlers of its own
    if open_to_all:
        log.warning("serving HTTP on %s without tokens (--allow-unauthenticated): every caller is the local user", host)
    try:
        background = watching(watched, settings) if watched else None
        # reads the tokens file: a bad one is one line, before any store is touched
        mcp = create_server(settings, background=background, transport="http" if transport == "http" else "stdio")
        GraphStore.connect(settings).close()  # one clear line now, rather than a failing first call
    except GraphRagError as exc:
        fail(str(exc))
    gc.freeze()  # what the start built lives as long as the server: later collections need not look at it
    gc.enable()
    try:
        if transport == "stdio":
            mcp.run(show_banner=False)
        else:
            options = uvicorn_options(settings)
            mcp.run(transport="http", host=host, port=port, show_banner=False, uvicorn_config=options)
    except Exception as exc:  # a store that cannot be opened at start (a damaged vector shard): one line, exit 2
        found = _service_error(exc)
        if found is None:
            raise
        fail(str(found))


def _service_error(exc: BaseException) -> GraphRagError | None:
    """The service's own error inside what the server's start raised (task groups wrap it in groups)."""
    if isinstance(exc, GraphRagError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        return next(filter(None, map(_service_error, exc.exceptions)), None)
    return _service_error(exc.__cause__) if exc.__cause__ is not None else None


def watching(packs: tuple[Path, ...], settings: Settings) -> Callable[[Services, threading.Event], None]:
    """The ``--watch`` task: the packs ingested with the server's model and driver, each save written into the
    vector shard the server searches and patched into its graph copy (``graphrag.server.live``), and what each
    save changed logged."""
    from ingest.pipeline import ingest
    from ingest.report import IngestReport
    from ingest.watching import PackWatcher

    def run(services: Services, stop: threading.Event) -> None:
        watcher = PackWatcher(
            packs,
            services.graph,
            lambda saved: services.live.write(
                lambda: ingest(packs, settings, embedder=services.embedder, graph=services.graph, saved=saved)
            ),
        )

        def first(report: IngestReport) -> None:
            log.info("watch: ingested %s (errors %d)", ", ".join(map(str, packs)), len(report.errors))
            log.info("watch: watching %s", ", ".join(map(str, packs)))

        try:
            watcher.run(
                first,
                lambda save: log.info("watch: %s", save.render()),
                lambda exc: log.warning("watch: %s", exc),
                stop,
            )
        except Exception:
            log.exception("watch: stopped; the server answers from what was ingested")

    return run
