"""``graphrag vectors copy``: move the stored vectors between the embedded shard and a Qdrant server."""

from __future__ import annotations

import time

import click

from graphrag.cli.failing import fail
from graphrag.config import Settings
from graphrag.errors import GraphRagError
from graphrag.logs import configure_logging
from graphrag.stores import answering
from graphrag.stores.vector_copy import copy_vectors
from graphrag.stores.vectors import VectorStore

PROGRESS_EVERY_SECONDS = 5.0


@click.group("vectors")
def vectors_group() -> None:
    """The entities' vectors."""


@vectors_group.command("copy")
@click.option("--to", "to_url", metavar="URL", help="Copy the embedded shard (GRAPHRAG_HOME) to the server at URL.")
@click.option("--from", "from_url", metavar="URL", help="Copy the server at URL into the embedded shard.")
def copy_command(to_url: str | None, from_url: str | None) -> None:
    """Copy every vector between the embedded Qdrant Edge shard under GRAPHRAG_HOME and the collection of a
    Qdrant server, without embedding again: the target ends holding what the source holds (same model, same
    points). QDRANT_API_KEY is the server's key; QDRANT_SHARDS and QDRANT_REPLICAS shape a new collection there.
    Set QDRANT_URL to the server afterwards to serve from it (or unset it to serve from the shard).

    Exit status: 0 copied, 2 a bad invocation, a store that cannot be reached, no vectors to copy, or a
    target holding another model's vectors.

    \b
    Example:
        graphrag vectors copy --to http://qdrant:6333
        graphrag vectors copy --from http://qdrant:6333
    """
    if (to_url is None) == (from_url is None):
        fail("say where to copy: --to URL (shard to server) or --from URL (server to shard), one of them")
    settings = Settings()
    configure_logging(settings)
    shard = settings.model_copy(update={"qdrant_url": None})
    server = settings.model_copy(update={"qdrant_url": to_url or from_url})
    source_settings, target_settings = (shard, server) if to_url else (server, shard)
    started = time.monotonic()
    shown = started

    def progress(copied: int) -> None:
        nonlocal shown
        if time.monotonic() - shown >= PROGRESS_EVERY_SECONDS:
            shown = time.monotonic()
            click.echo(f"copied {copied} vectors ...", err=True)

    try:
        with answering(), VectorStore.open(source_settings) as source, VectorStore.open(target_settings) as target:
            held = copy_vectors(source, target, progress)
            embedder = source.embedder()
            click.echo(
                f"copied {held} vectors ({embedder}) from {source.where} to {target.where} "
                f"in {time.monotonic() - started:.1f}s; the target holds {held}"
            )
    except GraphRagError as exc:
        fail(str(exc))
