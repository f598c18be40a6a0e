"""The MCP server: ``create_server(settings)`` builds it; the lifespan opens the stores once per process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastmcp import FastMCP
from starlette.requests import Request
from starlette.responses import JSONResponse

from graphrag.config import Settings
from graphrag.embedding import Embedder, load_embedder
from graphrag.memory.access import load_access
from graphrag.memory.schema import ensure_memory_schema
from graphrag.memory.tools import register_memory_tools
from graphrag.retrieval.vectors import open_vector_index
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.server.context import Services
from graphrag.server.errors import InvalidArgumentsMiddleware
from graphrag.server.tools import register_pack_tools
from graphrag.stores.graph import GraphStore

INSTRUCTIONS = """Knowledge packs as a typed graph. pack_context answers a multi-hop question in one call
(entities, connecting paths, citable passages); pack_search finds entities by name, words and meaning;
pack_graph follows typed links (neighbourhood, shortest paths with `to`, relation chains with `path`);
pack_get reads one entity whole (large bodies in pages with cursor='start').
search finds saved memory records (with provenance, freshness status and graph_relations); save_memory
saves one; validate_memory checks all records of one source against its current hash.
Errors start with a stable code: not_found, invalid_argument, forbidden, workspace_inactive, rate_limited,
response_too_large, document_changed, unavailable."""
QUERY_RETRY_SECONDS = 3  # a call waits this long for a lost Neo4j before it answers `unavailable`


class StoreLifespan:
    """Opens Neo4j, the vector index and the embedder before the first call, and closes them at the end."""

    def __init__(self, settings: Settings, embedder: Embedder | None) -> None:
        self._settings = settings
        self._embedder = embedder
        self.services: Services | None = None

    @asynccontextmanager
    async def __call__(self, server: FastMCP) -> AsyncIterator[dict[str, Any]]:
        opened = await anyio.to_thread.run_sync(self._open)
        self.services = opened
        try:
            yield {"services": opened}
        finally:
            self.services = None
            opened.vectors.close()
            opened.graph.close()

    def _open(self) -> Services:
        graph = GraphStore.connect(self._settings, retry_seconds=QUERY_RETRY_SECONDS)
        try:
            ensure_memory_schema(graph)
            embedder = self._embedder or load_embedder(self._settings.graphrag_embedder)
            embedder.embed(["warm up"])  # the model loads lazily, without a lock: load it before concurrent calls
            vectors = open_vector_index(self._settings, graph, embedder.id)
        except BaseException:
            graph.close()
            raise
        return Services(self._settings, graph, embedder, vectors, RelationVocabulary(graph))

    async def health(self, request: Request) -> JSONResponse:
        """``GET /health`` for load balancers: 200 when Neo4j answers, 503 otherwise."""
        opened = self.services
        if opened is None:
            return JSONResponse({"status": "starting"}, status_code=503)
        try:
            await anyio.to_thread.run_sync(lambda: opened.graph.read("graph_ping"))
        except Exception as exc:  # any failure means "not ready"; say which
            return JSONResponse({"status": "unavailable", "neo4j": " ".join(str(exc).split())}, status_code=503)
        return JSONResponse({"status": "ok"})


def create_server(settings: Settings, *, embedder: Embedder | None = None) -> FastMCP:
    """The server with every tool; ``embedder`` lets tests and benchmarks share one loaded model."""
    stores = StoreLifespan(settings, embedder)
    access = load_access(settings.graphrag_tokens_file)
    mcp = FastMCP(
        "graphrag",
        instructions=INSTRUCTIONS,
        lifespan=stores,
        mask_error_details=True,
        auth=access.auth,
        middleware=[InvalidArgumentsMiddleware(), *access.middleware],
    )
    register_pack_tools(mcp)
    register_memory_tools(mcp)
    mcp.custom_route("/health", methods=["GET"])(stores.health)
    return mcp
