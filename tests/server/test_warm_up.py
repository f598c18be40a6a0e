"""The server builds the in-memory tables of hybrid search at start (over 100,000 entities they took 38 s in
the first call): the first call after start builds nothing."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import EXAMPLES

BUILDS = ("built ", "read the graph copy")  # graphrag.retrieval.snapshot's log lines of what it builds


async def test_the_first_hybrid_search_after_start_builds_nothing(
    run_ingest: Any, client_for: Any, caplog: pytest.LogCaptureFixture
) -> None:
    run_ingest(EXAMPLES / "space-missions")
    caplog.set_level(logging.INFO, logger="graphrag")

    async with client_for() as client:
        at_start = [r.getMessage() for r in caplog.records]
        caplog.clear()
        result = await client.call_tool("pack_search", {"query": "which vehicle launched SM.MISSION.APOLLO11?"})
        in_call = [r.getMessage() for r in caplog.records]

    assert [m.split(" over ")[0] for m in at_start if m.startswith("built ")] == [
        "built names",
        "built scripts",
        "built kind words",
        "built shapes",
        "built pack words",
        "built adjacency",
    ]
    assert any(m.startswith("read the graph copy: ") for m in at_start)
    assert any(m.startswith("warm-up: ") for m in at_start)
    assert result.structured_content is not None and "linked" in result.structured_content["results"][0]["matched"]
    assert not [m for m in in_call if m.startswith(BUILDS)]


def test_the_embedded_engine_never_loads_the_qdrant_server_client(run_ingest: Any, settings: Any) -> None:
    """qdrant-client builds its models on import (half a second); only a Qdrant server needs it, and a tool
    call's store-error handling loaded it, so every server's first call paid for it. A fresh process, as
    production runs: ingest, start the server, call a tool."""
    run_ingest(EXAMPLES / "space-missions")
    script = (
        "import asyncio, sys\n"
        "from fastmcp import Client\n"
        "from graphrag.config import Settings\n"
        "from graphrag.server.app import create_server\n"
        "async def main():\n"
        "    async with Client(create_server(Settings())) as client:\n"
        "        await client.call_tool('pack_get', {'id': 'SM.MISSION.APOLLO11'})\n"
        "        await client.call_tool('pack_search', {'query': 'Who flew on Apollo 11?'})\n"
        "asyncio.run(main())\n"
        "print(sorted(m for m in sys.modules if m.startswith('qdrant_client')))\n"
    )
    env = {**os.environ, "GRAPHRAG_HOME": str(settings.graphrag_home)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"
