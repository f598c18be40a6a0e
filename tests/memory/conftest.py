"""A FastMCP server with only the memory tools, on the real Neo4j and the real embedder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client, FastMCP
from fastmcp.server.lifespan import lifespan

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.memory.access import MemoryAccess
from graphrag.memory.schema import ensure_memory_schema
from graphrag.memory.tools import register_memory_tools
from graphrag.retrieval.vectors import MirrorIndex
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.server.context import Services
from graphrag.stores.graph import GraphStore


def memory_server(
    graph: GraphStore, embedder: Embedder, settings: Settings, access: MemoryAccess | None = None
) -> FastMCP:
    @lifespan
    async def services(server: FastMCP) -> AsyncIterator[dict[str, Any]]:
        vectors = MirrorIndex(settings, graph, embedder.id)
        try:
            yield {
                "services": Services(settings, graph, embedder, vectors=vectors, relations=RelationVocabulary(graph))
            }
        finally:
            vectors.close()

    access = access or MemoryAccess(auth=None)
    mcp = FastMCP("memory-test", lifespan=services, auth=access.auth, middleware=access.middleware)
    register_memory_tools(mcp)
    return mcp


@pytest.fixture
def memory_graph(graph: GraphStore) -> GraphStore:
    ensure_memory_schema(graph)
    return graph


@pytest.fixture
async def client(memory_graph: GraphStore, embedder: Embedder, settings: Settings) -> AsyncIterator[Client[Any]]:
    async with Client(memory_server(memory_graph, embedder, settings)) as connected:
        yield connected


async def save(client: Client[Any], content: str, **fields: Any) -> dict[str, Any]:
    result = await client.call_tool("save_memory", {"content": content, **fields})
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def search(client: Client[Any], query: str, **params: Any) -> list[dict[str, Any]]:
    result = await client.call_tool("search", {"query": query, **params})
    assert isinstance(result.structured_content, dict)
    hits: list[dict[str, Any]] = result.structured_content["result"]
    return hits
