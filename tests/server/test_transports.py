"""``graphrag serve`` as users run it: a subprocess on stdio, and on streamable HTTP with ``/health``."""

from __future__ import annotations

import os
import socket
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

from tests.conftest import EXAMPLES


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served_env(run_ingest, tmp_path: Path) -> dict[str, str]:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    # the same Qdrant folder the ingest wrote (the test's `settings` home)
    return {**os.environ, "GRAPHRAG_HOME": str(tmp_path / "home")}


@pytest.fixture
def http_server(served_env: dict[str, str]) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "graphrag.cli", "serve", "--transport", "http", "--port", str(port)],
        env=served_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
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
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            assert time.monotonic() < deadline, "the HTTP server did not become healthy"
            time.sleep(0.5)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


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


def test_serve_without_neo4j_is_one_line_and_exit_2(tmp_path: Path) -> None:
    env = {**os.environ, "NEO4J_URI": "bolt://127.0.0.1:9", "GRAPHRAG_HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "graphrag.cli", "serve"], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "unavailable: Neo4j" in result.stderr
