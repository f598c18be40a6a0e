"""The official MCP Inspector's CLI (npm, pinned in tests/inspector; ``make test-deps`` installs it) against
``graphrag serve`` over stdio on the example pack: every tool called with every kind of argument it takes, as
``--tool-arg key=value`` text that the Inspector converts by the input schema's top-level ``type`` (lists and
numbers as JSON, booleans as true/false; no tool takes an object). Each call starts the server afresh, as the
CLI does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES

INSPECTOR = Path(__file__).resolve().parents[1] / "inspector" / "node_modules" / ".bin" / "mcp-inspector"


@pytest.fixture
def served_env(run_ingest, tmp_path: Path) -> dict[str, str]:  # type: ignore[no-untyped-def]
    if not INSPECTOR.exists():
        pytest.fail(f"the MCP Inspector is not installed: run `make test-deps` ({INSPECTOR} is missing)")
    run_ingest(EXAMPLES / "space-missions")
    return {**os.environ, "GRAPHRAG_HOME": str(tmp_path / "home")}


def inspect(env: dict[str, str], method: str, *options: str) -> dict[str, Any]:
    """One Inspector CLI run: it starts ``graphrag serve`` (stdio), calls ``method`` and prints the answer."""
    command = [str(INSPECTOR), "--cli", sys.executable, "-m", "graphrag.cli", "serve", "--method", method, *options]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def call(env: dict[str, str], tool: str, **arguments: str) -> dict[str, Any]:
    pairs = [option for name, value in arguments.items() for option in ("--tool-arg", f"{name}={value}")]
    answer = inspect(env, "tools/call", "--tool-name", tool, *pairs)
    assert not answer.get("isError"), (tool, answer)
    structured: dict[str, Any] = answer["structuredContent"]
    return structured


def test_the_inspector_cli_passes_every_kind_of_argument(served_env: dict[str, str]) -> None:
    """One run per tool (each starts a server: about 20 s on a shared two-core machine), so pack_graph takes its
    neighbourhood arguments and ``path`` in one call; resources and prompts are read through FastMCP's client
    (test_agents.py)."""
    env = served_env
    found = call(env, "pack_search", query="rocket", limit="2", packs='["space-missions"]',
                 kinds='["Launch Vehicles"]', mode="text")  # fmt: skip
    assert [hit["kind"] for hit in found["results"]] == ["launch_vehicle", "launch_vehicle"]
    context = call(env, "pack_context", question="Which rocket launched Vostok 1?", packs='["space-missions"]',
                   kinds='["mission", "launch_vehicle"]')  # fmt: skip
    assert {e["kind"] for e in context["entities"]} <= {"mission", "launch_vehicle"} and context["passages"]
    graph = call(
        env, "pack_graph", id="SM.MISSION.LUNA9", depth="3", relations='["part_of"]', direction="out", limit="20",
        to="SM.PERSON.KOROLEV", path='["part_of", "operated_by", "led_by"]',
    )  # fmt: skip
    assert graph["reached"] == ["SM.PERSON.KOROLEV"] and len(graph["paths"]) == 1
    page = call(env, "pack_get", id="sm.mission.apollo11", cursor="start", format="metadata")
    assert page["id"] == "SM.MISSION.APOLLO11" and page["complete"]
    catalog = call(env, "pack_catalog")
    assert catalog["packs"][0]["kinds"]["mission"] == 7

    saved = call(env, "save_memory", content="Saturn V flew every crewed Apollo lunar mission", workspace="notes",
                 scope="shared", source="agent", source_id="docs/apollo.md", source_hash="sha256:1", fact_key="apollo",
                 source_revision="r1", confidence="0.9", derived_from="[]")  # fmt: skip
    assert saved["confidence"] == 0.9
    memory = call(env, "search", query="Saturn", workspace="notes", scope="shared", limit="5",
                  current_source_hash="sha256:1", exclude_stale="true")  # fmt: skip
    assert [record["id"] for record in memory["result"]] == [saved["id"]]
    checked = call(
        env, "validate_memory", source_id="docs/apollo.md", current_source_hash="sha256:2", workspace="notes"
    )
    assert checked["counts"]["stale"] == 1
    assert call(env, "run_archivist", workspace="notes")["workspace"] == "notes"
