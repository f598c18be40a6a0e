"""The memory tools through the production server (``create_server``), on the real Neo4j and embedder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.memory.schema import ensure_memory_schema
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore


@pytest.fixture
def memory_graph(graph: GraphStore) -> GraphStore:
    ensure_memory_schema(graph)
    return graph


@pytest.fixture
async def client(memory_graph: GraphStore, embedder: Embedder, settings: Settings) -> AsyncIterator[Client[Any]]:
    async with Client(create_server(settings, embedder=embedder)) as connected:
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
