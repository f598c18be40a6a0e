"""Run a query file through this service's ranking and record the ranked hits as evaluation arms
(``graphrag eval record``).

In process (the default), every search configuration ranks the queries against one load of the stores (the
graph copy, its tables and the model are shared), so N configurations cost one start. Through MCP, the
queries go to this service's own ``pack_search`` tool in process, with its response budget and visibility,
as an agent would meet them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastmcp import Client
from fastmcp.exceptions import ToolError

from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.errors import InvalidArgument
from graphrag.evaluation.contract import Arm, Corpus
from graphrag.evaluation.recording import (
    SEARCH_CONFIG_KEY,
    FoundEntity,
    RecordQuery,
    build_arm,
    snapshot_id,
    with_reranker,
)
from graphrag.retrieval.config import SearchConfig
from graphrag.retrieval.search import searches
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore

Ranked = list[tuple[RecordQuery, list[str]]]  # each query with the ids it found, best first


def record_arms(
    settings: Settings,
    queries: Sequence[RecordQuery],
    configs: Mapping[str, SearchConfig],
    config: dict[str, Any],
    label: str,
    search: dict[str, Any],
) -> dict[str, tuple[Arm, Corpus]]:
    """An arm per named configuration, ranked in process; ``search`` holds pack_search's other arguments
    (limit, packs, kinds, mode), the same for every query. Each arm's config records its configuration's
    digest (reranker.searchConfig), so arms differ in that key alone."""
    embedder = load_embedder(settings.graphrag_embedder)
    limit, packs, kinds = search["limit"], search.get("packs"), search.get("kinds")
    mode = search.get("mode", "hybrid")
    with GraphStore.connect(settings) as graph:
        with searches(settings, graph, embedder) as searcher:
            ranked: dict[str, Ranked] = {
                name: [
                    (query, [hit.id for hit in searcher(ranking).rank(query.text, limit, packs, kinds, mode).hits])
                    for query in queries
                ]
                for name, ranking in configs.items()
            }
        return {
            name: _arm(
                graph, embedder.id, found, with_reranker(config, SEARCH_CONFIG_KEY, configs[name].digest()), label
            )
            for name, found in ranked.items()
        }


async def record_arm(
    settings: Settings,
    queries: Sequence[RecordQuery],
    ranking: SearchConfig,
    config: dict[str, Any],
    label: str,
    search: dict[str, Any],
) -> tuple[Arm, Corpus]:
    """One arm through the MCP tool of a server ranking with ``ranking`` (its digest goes in the config)."""
    embedder = load_embedder(settings.graphrag_embedder)
    server = create_server(settings, embedder=embedder, search=ranking)
    config = with_reranker(config, SEARCH_CONFIG_KEY, ranking.digest())
    results: Ranked = []
    async with Client(server) as client:
        for query in queries:
            try:
                answer = await client.call_tool("pack_search", {**search, "query": query.text})
            except ToolError as error:  # a refused argument (a mode this server lacks) is the caller's, not a bug
                reason = str(error).removeprefix(f"{InvalidArgument.code}: ")
                if reason == str(error):
                    raise
                raise InvalidArgument(f"pack_search refused query {query.query_id}: {reason}") from error
            found = answer.structured_content or {}
            if found.get("omitted"):  # an arm must hold whole rankings, not what one response could carry
                raise InvalidArgument(
                    f"pack_search left out {found['omitted']} hits of query {query.query_id} to fit the response "
                    "budget: record with a smaller --limit, or raise GRAPHRAG_RESPONSE_BUDGET_BYTES"
                )
            results.append((query, [hit["id"] for hit in found.get("results", [])]))
    with GraphStore.connect(settings) as graph:
        return _arm(graph, embedder.id, results, config, label)


def _arm(
    graph: GraphStore, embedder_id: str, results: Ranked, config: dict[str, Any], label: str
) -> tuple[Arm, Corpus]:
    """The arm of ``results``, its hits read as the graph holds them now (the snapshot names that state)."""
    snapshot = snapshot_id((r["id"], r["sha256"]) for r in graph.read("eval_snapshot"))
    ids = sorted({i for _, found in results for i in found})
    entities = {
        r["id"]: FoundEntity(r["id"], r["title"], r["summary"] or "") for r in graph.read("retrieval_entities", ids=ids)
    }
    found = [(query, [entities[i] for i in hit_ids if i in entities]) for query, hit_ids in results]
    return build_arm(label, config, embedder_id, snapshot, found)
