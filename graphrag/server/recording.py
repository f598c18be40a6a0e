"""Run a query file through this service's own ``pack_search`` (the MCP tool, in process) and record
the ranked hits as an evaluation arm (``graphrag eval record``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastmcp import Client
from fastmcp.exceptions import ToolError

from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.errors import InvalidArgument
from graphrag.evaluation.contract import Arm, Corpus
from graphrag.evaluation.recording import FoundEntity, RecordQuery, build_arm, snapshot_id
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore


async def record_arm(
    settings: Settings,
    queries: Sequence[RecordQuery],
    config: dict[str, Any],
    label: str,
    search: dict[str, Any],
) -> tuple[Arm, Corpus]:
    """``search`` holds pack_search's other arguments (limit, packs, kinds, mode), the same for every query."""
    embedder = load_embedder(settings.graphrag_embedder)
    server = create_server(settings, embedder=embedder)
    results: list[tuple[RecordQuery, list[str]]] = []
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
        snapshot = snapshot_id((r["id"], r["sha256"]) for r in graph.read("eval_snapshot"))
        ids = sorted({i for _, found in results for i in found})
        entities = {
            r["id"]: FoundEntity(r["id"], r["title"], r["summary"] or "")
            for r in graph.read("retrieval_entities", ids=ids)
        }
    found = [(query, [entities[i] for i in hit_ids if i in entities]) for query, hit_ids in results]
    return build_arm(label, config, embedder.id, snapshot, found)
