"""Server fixtures: the example pack ingested for real, and an in-process MCP client over the real stores."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import yaml
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fastmcp import Client, FastMCP
from fastmcp.exceptions import ToolError
from mcp.types import CallToolResult
from pydantic import SecretStr

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.server.app import create_server
from tests.conftest import EXAMPLES


def wire_bytes(result: Any) -> int:
    """UTF-8 bytes of a tool result as it travels: both the text block and the structured content."""
    wire = CallToolResult(content=result.content, structured_content=result.structured_content)
    return len(wire.model_dump_json(by_alias=True, exclude_none=True).encode())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def served_over_http(mcp: FastMCP, options: dict[str, Any] | None = None) -> AsyncIterator[str]:
    """A real uvicorn serving ``mcp`` on a free loopback port, in this event loop; yields its base URL.
    ``options``: uvicorn's configuration as ``graphrag serve`` gives it (``uvicorn_options``)."""
    port = free_port()
    config = uvicorn.Config(mcp.http_app(), host="127.0.0.1", port=port, **(options or {"log_level": "warning"}))
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


def write_entity(root: Path, entity_id: str, body: str = "", **front: Any) -> Path:
    lines = ["---", f"id: {entity_id}"]
    for key, value in front.items():
        lines.append(f"{key}: {value}")
    path = root / f"{entity_id.lower().replace('.', '-')}.md"
    path.write_text("\n".join([*lines, "---", body]), encoding="utf-8")
    return path


@pytest.fixture
def client_for(settings: Settings, embedder: Embedder) -> Callable[..., Client[Any]]:
    """A client of a fresh server over the test's stores (budget and settings overridable)."""

    def make(**overrides: Any) -> Client[Any]:
        return Client(create_server(settings.model_copy(update=overrides), embedder=embedder))

    return make


@pytest.fixture
async def example(run_ingest, client_for) -> AsyncIterator[Client[Any]]:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    async with client_for() as client:
        yield client


TEAM_TOOLS = {"github_connect", "connect_source", "reindex_source", "disconnect_source", "get_document", "put_document"}


def team_settings(settings: Settings, tokens_file: Path) -> Settings:
    """Settings under which the team source tools are served (over HTTP): a GitHub App (here one whose API
    is nowhere: these tests never reach it) and a tokens file."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    tokens_file.write_text(yaml.safe_dump(TEAM_TOKENS), encoding="utf-8")
    return settings.model_copy(
        update={
            "github_api_url": "http://127.0.0.1:9",
            "github_app_id": "1",
            "github_app_private_key": SecretStr(pem.decode()),
            "graphrag_tokens_file": tokens_file,
        }
    )


TEAM_TOKENS = {"projects": {"acme": {"active": True}}, "tokens": [{"name": "a", "token": "a" * 20, "project": "acme"}]}


@pytest.fixture
async def every_tool(run_ingest, settings, embedder, tmp_path) -> AsyncIterator[Client[Any]]:  # type: ignore[no-untyped-def]
    """The example pack, and a client of a server that lists every tool (team source tools too)."""
    run_ingest(EXAMPLES / "space-missions")
    served = team_settings(settings, tmp_path / "tokens.yaml")
    async with Client(create_server(served, embedder=embedder, transport="http")) as client:
        yield client


VALID: dict[str, dict[str, Any]] = {  # arguments each tool accepts (tests add one bad argument, or a bad token)
    "pack_search": {"query": "rocket"},
    "pack_context": {"question": "rocket"},
    "pack_graph": {"id": "SM.MISSION.LUNA9"},
    "pack_get": {"id": "SM.MISSION.LUNA9"},
    "search": {"query": "x"},
    "save_memory": {"content": "x"},
    "validate_memory": {"source_id": "x"},
    "run_archivist": {},
    "pack_catalog": {},
    "github_connect": {"user_token": "x"},
    "connect_source": {"repository": "acme/handbook"},
    "reindex_source": {"source": "github:acme/handbook"},
    "disconnect_source": {"source": "github:acme/handbook"},
    "get_document": {"source": "github:acme/handbook", "filename": "a.md"},
    "put_document": {"source": "github:acme/handbook", "filename": "a.md", "content": "x", "sha": None},
}


def string_limits(tools: Sequence[Any]) -> list[tuple[str, str, int | None, bool]]:
    """Every string argument of every tool (enums aside): tool, argument, its ``maxLength``, whether a list."""
    found = []
    for tool in tools:
        for name, schema in tool.input_schema["properties"].items():
            for branch in schema.get("anyOf", [schema]):
                if branch.get("type") == "array" and branch["items"].get("type") == "string":
                    found.append((tool.name, name, branch["items"].get("maxLength"), True))
                elif branch.get("type") == "string" and "enum" not in branch:
                    found.append((tool.name, name, branch.get("maxLength"), False))
    return found


async def refuses_past_limits(
    client: Client[Any], tools: Sequence[Any], valid: dict[str, dict[str, Any]] = VALID
) -> None:
    """One character too many, in every string argument of ``tools`` (``valid``: arguments each accepts), and
    the floods of issue 18 (a 300,000-character workspace, 10,000 combining accents): ``invalid_argument``,
    never ``internal``."""
    cases = []
    for tool, name, limit, is_list in string_limits(tools):
        assert limit is not None, (tool, name)
        cases += [(tool, name, "a" * (limit + 1), is_list), (tool, name, "\u0301" * max(10_000, limit + 1), is_list)]
    if "save_memory" in [tool.name for tool in tools]:
        cases += [("save_memory", name, "a" * 300_000, False) for name in ("workspace", "source_id", "fact_key")]
    for tool, name, value, is_list in cases:
        with pytest.raises(ToolError) as caught:
            await client.call_tool(tool, {**valid[tool], name: [value] if is_list else value})
        message = str(caught.value)
        assert message.startswith(f"invalid_argument: {name}") and "characters" in message, (tool, name, message)


@contextmanager
def serve_http_process(env: dict[str, str], log: Path) -> Iterator[str]:
    """``graphrag serve --transport http`` as users run it, in a subprocess on a free port; yields its base
    URL once ``/health`` answers ok (its stderr goes to ``log``), and stops it at the end."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "graphrag.cli", "serve", "--transport", "http", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{base}/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError):
                pass
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the HTTP server did not become healthy"
            time.sleep(0.5)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)
