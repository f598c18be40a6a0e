"""Access over streamable HTTP: project-bound tokens for every tool, another project's workspace, rate limits,
and a tokens file that cannot be used.

A real uvicorn server on a free local port, built by ``create_server`` from a tokens file; the client
connects with a bearer token.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from fastmcp import Client
from fastmcp.exceptions import ToolError

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.errors import InvalidArgument
from graphrag.server.access import load_access
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore
from tests.memory.conftest import save, search
from tests.server.conftest import TEAM_TOOLS, VALID, served_over_http

TOKENS = {
    "projects": {
        "acme": {"active": True},
        "globex": {"active": True, "calls_per_minute": 6},
        "initech": {"active": True},
        "retired": {"active": False},
    },
    "tokens": [
        {"name": "acme-bot", "token": "acme-secret-token-0001", "project": "acme"},
        {"name": "acme-slow", "token": "acme-secret-token-0002", "project": "acme", "calls_per_minute": 2},
        {"name": "globex-bot", "token": "globex-secret-token-01", "project": "globex"},
        {"name": "retired-bot", "token": "retired-secret-token-1", "project": "retired"},
        {"name": "orphan-bot", "token": "orphan-secret-token-01", "project": "vanished"},
        {"name": "acme-slow", "token": "initech-secret-token-1", "project": "initech", "calls_per_minute": 2},
    ],
}
UNBOUND = r"^forbidden: bound project is missing, inactive, or outside tenant$"


@pytest.fixture
async def http_url(graph: GraphStore, embedder: Embedder, settings: Settings, tmp_path: Path) -> AsyncIterator[str]:
    tokens_file = tmp_path / "tokens.yaml"
    tokens_file.write_text(yaml.safe_dump(TOKENS), encoding="utf-8")
    mcp = create_server(settings.model_copy(update={"graphrag_tokens_file": tokens_file}), embedder=embedder)
    async with served_over_http(mcp) as base:
        yield f"{base}/mcp"


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
async def test_token_of_a_missing_or_inactive_project_is_refused_by_every_tool(http_url: str, token: str) -> None:
    # no team tools: this server has no GitHub App (tests/github has them)
    calls = {tool: arguments for tool, arguments in VALID.items() if tool not in ("validate_memory", "run_archivist")}
    calls = {tool: arguments for tool, arguments in calls.items() if tool not in TEAM_TOOLS}
    async with Client(http_url, auth=token) as bound:
        assert set(calls) | {"validate_memory", "run_archivist"} == {t.name for t in await bound.list_tools()}
        for tool, arguments in calls.items():
            with pytest.raises(ToolError, match=UNBOUND):
                await bound.call_tool(tool, arguments)


@pytest.mark.parametrize("token", ["retired-secret-token-1", "orphan-secret-token-01"])
async def test_resources_and_prompts_are_refused_like_tools(http_url: str, token: str) -> None:
    async with Client(http_url, auth=token) as bound:
        with pytest.raises(Exception, match=UNBOUND.rstrip("$")):
            await bound.read_resource("pack://SM.MISSION.APOLLO11")
        with pytest.raises(Exception, match=UNBOUND.rstrip("$")):
            await bound.get_prompt("multi_hop_answer", {"question": "x"})


async def test_resource_reads_and_prompts_count_against_the_rate_limit(http_url: str) -> None:
    async with Client(http_url, auth="acme-secret-token-0002") as slow:  # two calls a minute
        with pytest.raises(Exception, match=r"not_found: no entity has the id 'SM\.NOTHING'"):
            await slow.read_resource("pack://SM.NOTHING")  # answered (an empty graph), so counted
        await slow.get_prompt("multi_hop_answer", {"question": "x"})
        with pytest.raises(Exception, match="rate_limited: MCP rate limit exceeded"):
            await slow.read_resource("pack://SM.NOTHING")
        with pytest.raises(Exception, match="rate_limited: MCP rate limit exceeded"):
            await slow.call_tool("pack_get", {"id": "SM.NOTHING"})


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
    async with client("initech-secret-token-1") as namesake:  # initech's acme-slow has a window of its own
        await save(namesake, "initech fact")
        await search(namesake, "initech")
    async with client("globex-secret-token-01") as globex:
        await save(globex, "globex fact")
        for _ in range(5):
            await search(globex, "globex")
        with pytest.raises(ToolError, match=r"^rate_limited: project call limit exceeded$"):
            await search(globex, "globex")


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}},
}
CALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "pack_catalog", "arguments": {}}}


def bearer(token: str, session: str | None = None) -> dict[str, str]:
    return {**MCP_HEADERS, "Authorization": f"Bearer {token}", **({"Mcp-Session-Id": session} if session else {})}


@pytest.mark.parametrize("method", ["POST", "GET", "DELETE"])
async def test_a_session_answers_only_the_token_that_opened_it(http_url: str, method: str) -> None:
    """acme's and initech's tokens share the name ``acme-slow``: a session is the token's, not the name's."""
    owner, namesake = "acme-secret-token-0002", "initech-secret-token-1"
    async with httpx.AsyncClient(timeout=30) as http:
        opened = await http.post(http_url, json=INITIALIZE, headers=bearer(owner))
        session = opened.headers["mcp-session-id"]
        body = CALL if method == "POST" else None
        refused = await http.request(method, http_url, json=body, headers=bearer(namesake, session))
        assert refused.status_code == 404
        still = await http.post(http_url, json=CALL, headers=bearer(owner, session))
        assert still.status_code == 200 and '"isError":false' in still.text.replace(" ", "")


def write_tokens(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "tokens.yaml"
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"tokens": [TOKENS["tokens"][0], {"name": "x", "token": "short-secret", "project": "acme"}]},
            r"tokens\[1\]\.token: String should have at least 16 characters$",
        ),
        (
            {"tokens": [TOKENS["tokens"][0], {**TOKENS["tokens"][1], "name": "acme-bot"}]},
            r"tokens\[1\]\.name: 'acme-bot' already names tokens\[0\] of that project$",
        ),
        (
            {"tokens": [TOKENS["tokens"][0], {**TOKENS["tokens"][2], "token": "acme-secret-token-0001"}]},
            r"tokens\[1\]\.token: the same token as tokens\[0\]$",
        ),
        (
            {"tokens": [{"name": "x", "token": "acme-secret-token-0001"}]},
            r"tokens\[0\]\.project: Field required$",
        ),
        (
            'tokens:\n  - {name: x, token: "acme-secret-token-0001", project: acme\n',
            r"is not valid YAML \(line \d+, column \d+\): ",
        ),
    ],
    ids=["short", "duplicate name", "duplicate token", "no project", "broken yaml"],
)
def test_a_tokens_file_that_cannot_be_used_is_one_line_without_the_token(
    tmp_path: Path, data: Any, expected: str
) -> None:
    path = write_tokens(tmp_path, data)
    with pytest.raises(InvalidArgument) as caught:
        load_access(path)
    message = str(caught.value)
    assert message.startswith(f"invalid_argument: tokens file {path}")
    assert "\n" not in message and "secret" not in message and "short-secret" not in message
    assert re.search(expected, message), message


def test_the_template_tokens_file_cannot_be_served_unedited() -> None:
    with pytest.raises(InvalidArgument, match=r"tokens\[0\]\.token: String should have at least 16 characters$"):
        load_access(Path(__file__).resolve().parents[2] / "tokens.example.yaml")


def test_a_missing_tokens_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match=r"tokens file .*nowhere\.yaml cannot be read: No such file"):
        load_access(tmp_path / "nowhere.yaml")
    assert load_access(None).auth is None
