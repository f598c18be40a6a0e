"""The server builds the in-memory tables of hybrid search at start (over 100,000 entities they took 38 s in
the first call): the first call after start builds nothing."""

from __future__ import annotations

import logging
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
        "built adjacency",
        "built scripts",
    ]
    assert any(m.startswith("read the graph copy: ") for m in at_start)
    assert any(m.startswith("warm-up: ") for m in at_start)
    assert result.structured_content is not None and "linked" in result.structured_content["results"][0]["matched"]
    assert not [m for m in in_call if m.startswith(BUILDS)]
