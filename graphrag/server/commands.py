"""``graphrag serve``: the MCP server over stdio (desktop clients) or streamable HTTP (shared deployments)."""

from __future__ import annotations

import sys

import click

from graphrag.config import Settings
from graphrag.errors import StoreUnavailable
from graphrag.stores.graph import GraphStore


@click.command("serve")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP only.")
@click.option("--port", default=8765, show_default=True, type=int, help="HTTP only.")
def serve(transport: str, host: str, port: int) -> None:
    """Serve the MCP tools: pack_search, pack_graph, pack_get and the memory (search, save_memory, ...).

    \b
    Example:
        graphrag serve                                  # stdio, for a desktop client
        graphrag serve --transport http --port 8765     # http://127.0.0.1:8765/mcp, GET /health
    """
    settings = Settings()
    try:
        GraphStore.connect(settings).close()  # one clear line now, rather than a failing first call
    except StoreUnavailable as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    from graphrag.server.app import create_server

    mcp = create_server(settings)
    if transport == "stdio":
        mcp.run(show_banner=False)
    else:
        mcp.run(transport="http", host=host, port=port, show_banner=False)
