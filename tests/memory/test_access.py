"""Access over streamable HTTP: project-bound tokens, another project's workspace, rate limits.

A real uvicorn server on a free local port; the client connects with a bearer token.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import yaml
from fastmcp import Client
from fastmcp.exceptions import ToolError

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.errors import InvalidArgument
from graphrag.memory.access import load_access
from graphrag.stores.graph import GraphStore
from tests.memory.conftest import memory_server, save, search

TOKENS = {
    "projects": {
        "acme": {"active": True},
        "globex": {"active": True, "calls_per_minute": 6},
        "retired": {"active": False},
    },
    "tokens": [
        {"name": "acme-bot", "token": "acme-secret-token-0001", "project": "acme"},
        {"name": "acme-slow", "token": "acme-secret-token-0002", "project": "acme", "calls_per_minute": 2},
        {"name": "globex-bot", "token": "globex-secret-token-01", "project": "globex"},
        {"name": "retired-bot", "token": "retired-secret-token-1", "project": "retired"},
        {"name": "orphan-bot", "token": "orphan-secret-token-01", "project": "vanished"},
    ],
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
async def http_url(
    memory_graph: GraphStore, embedder: Embedder, settings: Settings, tmp_path: Path
) -> AsyncIterator[str]:
    tokens_file = tmp_path / "tokens.yaml"
    tokens_file.write_text(yaml.safe_dump(TOKENS), encoding="utf-8")
    mcp = memory_server(memory_graph, embedder, settings, load_access(tokens_file))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(mcp.http_app(), host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    await task


def as_token(url: str) -> Callable[[str], Client[Any]]:
    return lambda token: Client(url, auth=token)


async def test_tokens_bind_projects_and_another_projects_workspace_is_refused(http_url: str) -> None:
    client = as_token(http_url)
    async with client("acme-secret-token-0001") as acme:
        saved = await save(acme, "acme deploys on tuesdays", workspace="acme-notes")
        assert [h["id"] for h in await search(acme, "deploys", workspace="acme-notes")] == [saved["id"]]
    async with client("globex-secret-token-01") as globex:
        with pytest.raises(ToolError, match=r"^forbidden: 403 Forbidden: workspace access denied for project$"):
            await search(globex, "deploys", workspace="acme-notes")
        with pytest.raises(ToolError, match="403 Forbidden: workspace access denied for project"):
            await globex.call_tool("validate_memory", {"source_id": "x", "workspace": "acme-notes"})
        with pytest.raises(ToolError, match=r"^workspace_inactive: workspace 'default' is not active$"):
            await search(globex, "deploys")  # acme's records are not globex's default either
        own = await save(globex, "globex deploys on fridays", workspace="acme-notes")  # its own workspace of that name
        assert [h["id"] for h in await search(globex, "deploys", workspace="acme-notes")] == [own["id"]]


@pytest.mark.parametrize("token", ["retired-secret-token-1", "orphan-secret-token-01"])
async def test_token_of_a_missing_or_inactive_project(http_url: str, token: str) -> None:
    async with Client(http_url, auth=token) as bound:
        for call in (save(bound, "x"), search(bound, "x")):
            with pytest.raises(ToolError, match=r"^forbidden: bound project is missing, inactive, or outside tenant$"):
                await call


async def test_unknown_token_is_rejected_at_the_http_layer(http_url: str) -> None:
    with pytest.raises(Exception, match=r"401|Unauthorized|error response"):
        async with Client(http_url, auth="not-a-known-token-at-all") as stranger:
            await stranger.list_tools()


async def test_rate_limits_per_token_and_per_project(http_url: str) -> None:
    client = as_token(http_url)
    async with client("acme-secret-token-0002") as slow:
        await save(slow, "first")
        await search(slow, "first")
        with pytest.raises(ToolError, match=r"^rate_limited: MCP rate limit exceeded$"):
            await search(slow, "first")
    async with client("acme-secret-token-0001") as other_token:  # another token of acme is not limited
        assert len(await search(other_token, "first")) == 1
    async with client("globex-secret-token-01") as globex:
        await save(globex, "globex fact")
        for _ in range(5):
            await search(globex, "globex")
        with pytest.raises(ToolError, match=r"^rate_limited: project call limit exceeded$"):
            await search(globex, "globex")


def test_bad_tokens_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "tokens.yaml"
    broken.write_text("tokens: [{name: x, token: short, project: p}]", encoding="utf-8")
    with pytest.raises(InvalidArgument, match=r"tokens file .* cannot be used"):
        load_access(broken)
    assert load_access(None).auth is None
