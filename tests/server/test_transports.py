"""``graphrag serve`` as users run it: a subprocess on stdio, and on streamable HTTP with ``/health`` and its log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastmcp import Client
from fastmcp.client.transports import StdioTransport
from fastmcp.exceptions import ToolError

from tests.conftest import EXAMPLES
from tests.server.conftest import serve_http_process


@pytest.fixture
def served_env(run_ingest, tmp_path: Path) -> dict[str, str]:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    # the same Qdrant folder the ingest wrote (the test's `settings` home)
    return {**os.environ, "GRAPHRAG_HOME": str(tmp_path / "home")}


@pytest.fixture
def server_log(tmp_path: Path) -> Path:
    return tmp_path / "server.log"


@pytest.fixture
def http_server(served_env: dict[str, str], server_log: Path) -> Iterator[str]:
    with serve_http_process({**served_env, "GRAPHRAG_LOG_FORMAT": "json"}, server_log) as base:
        yield base


async def test_streamable_http_serves_tools_and_health(http_server: str) -> None:
    with urllib.request.urlopen(f"{http_server}/health", timeout=5) as response:
        assert response.read() == b'{"status":"ok"}'
    async with Client(f"{http_server}/mcp") as client:
        result = await client.call_tool("pack_search", {"query": "Saturn V rocket", "limit": 1})
    assert result.structured_content is not None
    assert result.structured_content["results"][0]["id"] == "SM.VEHICLE.SATURNV"


async def test_stdio_subprocess_serves_tools(served_env: dict[str, str]) -> None:
    transport = StdioTransport(command=sys.executable, args=["-m", "graphrag.cli", "serve"], env=served_env)
    async with Client(transport) as client:
        names = {tool.name for tool in await client.list_tools()}
        result = await client.call_tool("pack_graph", {"id": "SM.MISSION.LUNA9", "path": ["part_of", "operated_by"]})
    assert {"pack_search", "pack_graph", "pack_get", "search", "save_memory", "validate_memory"} <= names
    assert result.structured_content is not None
    assert sorted(result.structured_content["reached"]) == ["SM.AGENCY.LAVOCHKIN", "SM.AGENCY.OKB1"]


async def test_the_log_has_one_json_line_per_call_and_no_query_text(http_server: str, server_log: Path) -> None:
    with urllib.request.urlopen(f"{http_server}/health?token=secret-in-the-url", timeout=5) as response:
        assert response.status == 200
    async with Client(f"{http_server}/mcp") as client:
        await client.call_tool("pack_search", {"query": "needle-words of the query", "limit": 1})
        with pytest.raises(ToolError):
            await client.call_tool("pack_get", {"id": "needle-id"})
    deadline = time.monotonic() + 10
    while "pack_get" not in server_log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    text = server_log.read_text()
    lines = [json.loads(line) for line in text.splitlines()]  # every line is one JSON object

    calls = [(line["tool"], line["outcome"]) for line in lines if line["logger"] == "graphrag.server.call_log"]
    assert calls == [("pack_search", "ok"), ("pack_get", "not_found")]
    assert all(isinstance(line["duration_ms"], float) for line in lines if "tool" in line)
    assert any(line["message"].endswith('"GET /health HTTP/1.1" 200') for line in lines)  # uvicorn's access log
    assert "needle" not in text and "secret-in-the-url" not in text and "?" not in text


def test_serve_without_neo4j_is_one_line_and_exit_2(tmp_path: Path) -> None:
    env = {**os.environ, "NEO4J_URI": "bolt://127.0.0.1:9", "GRAPHRAG_HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "graphrag.cli", "serve"], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "unavailable: Neo4j" in result.stderr


def serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NEO4J_URI": "bolt://127.0.0.1:9", "GRAPHRAG_HOME": str(tmp_path)}
    env.pop("GRAPHRAG_TOKENS_FILE", None)
    command = [sys.executable, "-m", "graphrag.cli", "serve", "--transport", "http", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def test_http_on_a_public_address_needs_tokens(tmp_path: Path) -> None:
    refused = serve(tmp_path, "--host", "0.0.0.0")
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert refused.stderr.startswith("error: refusing to serve HTTP on 0.0.0.0 without GRAPHRAG_TOKENS_FILE")

    allowed = serve(tmp_path, "--host", "0.0.0.0", "--allow-unauthenticated")  # gets as far as Neo4j
    assert allowed.returncode == 2 and "unavailable: Neo4j" in allowed.stderr
    assert "without tokens (--allow-unauthenticated)" in allowed.stderr


def test_a_bad_tokens_file_stops_serve_with_one_line(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.yaml"
    tokens.write_text("tokens: [{name: x, token: a-secret-too-short, project: p}, {name: x, token: tiny, project: p}]")
    env = {**os.environ, "GRAPHRAG_TOKENS_FILE": str(tokens), "GRAPHRAG_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "graphrag.cli", "serve", "--transport", "http", "--host", "0.0.0.0"]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "tokens[1].token: String should have at least 16 characters" in result.stderr
    assert "tiny" not in result.stderr and "a-secret" not in result.stderr
