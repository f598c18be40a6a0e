"""How a command ends on a bad invocation or an unreachable store: one line on stderr, exit 2."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from graphrag.config import Settings
    from graphrag.stores.graph import GraphStore


def fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def connected(settings: Settings) -> GraphStore:
    """Neo4j, or the one line that says why it cannot be reached (the store loads only when a command asks)."""
    from graphrag.errors import GraphRagError
    from graphrag.stores.graph import GraphStore

    try:
        return GraphStore.connect(settings)
    except GraphRagError as exc:
        fail(str(exc))
