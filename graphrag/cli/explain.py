"""``graphrag explain QUESTION``: how ``pack_search`` reads a question, and why each hit ranks where it does."""

from __future__ import annotations

import click

from graphrag.cli.failing import connected, fail
from graphrag.config import Settings
from graphrag.errors import GraphRagError
from graphrag.logs import configure_logging
from graphrag.stores import answering


@click.command("explain")
@click.argument("question")
@click.option("--pack", "packs", multiple=True, help="Only this pack (repeat for several).")
@click.option("--kind", "kinds", multiple=True, help="Only this kind (repeat for several).")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 50), help="Hits to explain.")
@click.option(
    "--mode",
    default="hybrid",
    show_default=True,
    type=click.Choice(["hybrid", "vector", "text"]),
    help="As pack_search.",
)
def explain_command(question: str, packs: tuple[str, ...], kinds: tuple[str, ...], limit: int, mode: str) -> None:
    """Show how QUESTION is read (the words that ask for relation steps, the names linked and what each
    became, the steps, every list fused with its weight) and, for each hit, its score, evidence, path and
    its place in each list. Searches the stores as the MCP server does, with its search configuration.

    Exit status: 0 explained, 2 a store that cannot be reached or an argument refused.

    \b
    Example:
        graphrag explain "Which programme is Apollo 11 part of?"
        graphrag explain --pack peps "Which PEP superseded PEP 215?"
    """
    from graphrag.embedding import load_embedder
    from graphrag.retrieval.config import configured
    from graphrag.retrieval.search import searches

    settings = Settings()
    configure_logging(settings)
    with connected(settings) as graph:
        try:
            with answering():
                config = configured(settings.graphrag_search_config)
                with searches(settings, graph, load_embedder(settings.graphrag_embedder)) as search:
                    ranking = search(config).rank(question, limit, packs or None, kinds or None, mode)  # type: ignore[arg-type]
                titles = {
                    r["id"]: r["title"] for r in graph.read("retrieval_entities", ids=[h.id for h in ranking.hits])
                }
        except GraphRagError as exc:
            fail(str(exc))
    lines = ranking.reading.lines()
    lines.append(f"hits ({len(ranking.hits)} of {ranking.available} ranked):" if ranking.hits else "hits: none")
    for place, hit in enumerate(ranking.hits, 1):
        via = f"; via {' '.join(hit.via)}" if hit.via else ""
        lines.append(f"  {place:>2}. {hit.id}  {titles.get(hit.id, '')!r}  score {hit.score:.4f}")
        lines.append(f"      matched {', '.join(hit.matched)}; {ranking.reading.places(hit.id) or 'no list'}{via}")
    click.echo("\n".join(lines))
