"""``graphrag drop PACK_ID``: remove a pack from the graph, the vectors and the caches, leaving the others."""

from __future__ import annotations

import sys

import click

from graphrag.cli.failing import connected, fail
from graphrag.config import Settings
from graphrag.errors import GraphRagError, echo
from graphrag.logs import configure_logging
from graphrag.names import TEAM_PACK_PREFIX, NearestNames
from graphrag.stores import answering
from graphrag.stores.graph import BATCH_ROWS, GraphStore
from graphrag.stores.vectors import VectorStore


@click.command("drop")
@click.argument("pack_id")
@click.option("--yes", is_flag=True, help="Drop without asking.")
def drop_command(pack_id: str, yes: bool) -> None:
    """Remove the pack PACK_ID: its entities, links, passages and vectors (other packs' links to its
    entities stay, to placeholders), and its Pack node. Asks first unless --yes.

    Exit status: 0 dropped, 1 not confirmed, 2 an unknown pack or a store that cannot be reached.

    \b
    Example:
        graphrag drop space-missions --yes
    """
    settings = Settings()
    configure_logging(settings)
    with connected(settings) as graph:
        sizes = {row["id"]: int(row["entities"]) for row in graph.read("pack_sizes")}
        if pack_id not in sizes:
            nearest = NearestNames((name, name) for name in sizes).of(pack_id, always=True)
            fail(f"no pack has the id {echo(pack_id)!r}; nearest: {', '.join(nearest) or 'none (no pack is stored)'}")
        if pack_id.startswith(TEAM_PACK_PREFIX):
            fail(f"{pack_id!r} is a team source: remove it with the disconnect_source tool")
        question = f"drop pack {pack_id!r}: {sizes[pack_id]} entities, their links, passages and vectors?"
        if not yes and not (sys.stdin.isatty() and click.confirm(question)):
            click.echo("not dropped (confirm, or pass --yes)", err=True)
            sys.exit(1)
        try:
            removed = _drop(graph, settings, pack_id)
        except GraphRagError as exc:
            fail(str(exc))
    click.echo(
        f"dropped pack {pack_id}: {removed} entities with their links, passages and vectors; "
        f"other packs untouched ({len(sizes) - 1} left)"
    )


def _drop(graph: GraphStore, settings: Settings, pack_id: str) -> int:
    """Vectors first, then the graph (as an ingest removes entities): a drop stopped half way leaves
    entities without vectors, which the next ingest of the pack embeds again, never vectors of nothing."""
    ids = [row["id"] for row in graph.read("pack_entities", id=pack_id)]
    with answering(), VectorStore.open(settings) as vectors:
        vectors.delete(ids)
    with answering():
        for start in range(0, len(ids), BATCH_ROWS):
            graph.write("ingest_remove_entities", ids=ids[start : start + BATCH_ROWS])
        graph.write("ingest_prune_placeholders")
        graph.write("pack_forget", id=pack_id)
    return len(ids)
