"""Several ``graphrag serve --transport http`` processes over one Neo4j and one vector store, as behind a load
balancer: the same calls get the same answers from each while an ingest runs beside them, and each serves
what that ingest wrote.

Full-text ranking rests on index-wide statistics (document counts and lengths, deleted documents too until
Lucene merges their segments away), which every commit of the ingest beside moves: two servers reading a
moment apart may order near-tied hits differently, as one server asked twice would. So while the ingest runs,
the answers that rest on no such statistics must agree call by call and the ranked ones must come; once it
has ended, every answer must agree, order and all."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from graphrag.config import Settings
from tests.conftest import EXAMPLES, store_env
from tests.server.conftest import serve_http_process, write_entity

SERVERS = 3
PACK = ["space-missions"]
IDS = ["SM.MISSION.APOLLO11", "SM.VEHICLE.SATURNV", "SM.AGENCY.MSFC", "SM.PERSON.VONBRAUN", "SM.PERSON.GAGARIN"]
QUESTIONS = [
    "Who led the agency that built the rocket that launched Apollo 11?",
    "Which rocket launched Gagarin?",
    "first crewed lunar landing",
    "liquid hydrogen upper stage",
    "Юрий Гагарин",
]


def mixed_calls() -> list[tuple[str, dict[str, Any]]]:
    """200 calls over the example pack only (filters keep the pack being ingested beside them out)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for question in QUESTIONS:
        for mode in ("hybrid", "text", "vector"):
            calls.append(("pack_search", {"query": question, "packs": PACK, "mode": mode}))
        calls.append(("pack_context", {"question": question, "packs": PACK}))
    for entity in IDS:
        calls.append(("pack_graph", {"id": entity, "depth": 2}))
        calls.append(("pack_get", {"id": entity}))
    return (calls * (200 // len(calls) + 1))[:200]


def full_text_ranked(call: tuple[str, dict[str, Any]]) -> bool:
    """Whether the call's answer is ranked by full-text scores (index-wide statistics) in part."""
    tool, arguments = call
    return tool == "pack_context" or (tool == "pack_search" and arguments["mode"] != "vector")


def without_scores(answer: Any) -> Any:
    """An answer as an agent reads it: entities and their order."""
    if isinstance(answer, dict):
        return {key: without_scores(value) for key, value in answer.items() if key != "score"}
    if isinstance(answer, list):
        return [without_scores(value) for value in answer]
    return answer


async def in_step(
    clients: list[Client[Any]], calls: list[tuple[str, dict[str, Any]]], ingest: subprocess.Popen[str] | None = None
) -> tuple[list[list[Any]], int]:
    """Each call sent to every server at once, call after call (an error fails it): per call, the servers'
    answers; and how many calls were answered while the ingest still ran."""
    out, beside = [], 0
    for tool, arguments in calls:
        results = await asyncio.gather(*(client.call_tool(tool, arguments) for client in clients))
        out.append([without_scores(result.structured_content) for result in results])
        beside += ingest is not None and ingest.poll() is None
    return out, beside


def agree(answers: list[Any]) -> bool:
    first, *others = answers
    return all(other == first for other in others)


async def served(base: str, entity_id: str, pack: str, deadline: float) -> bool:
    """Whether the server reads the entity from the graph and finds it by meaning within its pack."""
    async with Client(f"{base}/mcp") as client:
        while time.monotonic() < deadline:
            page = await client.call_tool("pack_get", {"id": entity_id}, raise_on_error=False)
            found = await client.call_tool(
                "pack_search", {"query": "a tether for orbital cargo", "packs": [pack], "mode": "vector"}
            )
            hits = (found.structured_content or {}).get("results", [])
            if not page.is_error and any(hit["id"] == entity_id for hit in hits):
                return True
            await asyncio.sleep(0.5)
    return False


@pytest.mark.engines
async def test_servers_over_one_graph_agree_while_an_ingest_runs_and_each_serves_its_changes(
    run_ingest,  # type: ignore[no-untyped-def]
    settings: Settings,
    tmp_path: Path,
) -> None:
    run_ingest(EXAMPLES / "space-missions")
    env = store_env(settings)
    extra = tmp_path / "cargo"
    extra.mkdir()
    for n in range(300):
        write_entity(extra, f"cargo.item{n}", f"Cargo item {n} for the station.", summary=f"Cargo item {n}.")
    write_entity(extra, "cargo.tether", "A tether that lifts cargo to orbit.", summary="A tether for orbital cargo.")
    calls = mixed_calls()
    with ExitStack() as servers:
        bases = [servers.enter_context(serve_http_process(env, tmp_path / f"server{i}.log")) for i in range(SERVERS)]
        ingest = subprocess.Popen(
            [sys.executable, "-m", "graphrag.cli", "ingest", str(extra)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        clients = [Client(f"{base}/mcp") for base in bases]
        async with clients[0], clients[1], clients[2]:
            during, beside = await in_step(clients, calls, ingest)
            _, errors = ingest.communicate(timeout=300)
            assert ingest.returncode == 0, errors
            deadline = time.monotonic() + 30
            picked_up = await asyncio.gather(*(served(base, "cargo.tether", "cargo", deadline) for base in bases))
            after, _ = await in_step(clients, calls)

    assert len(during) == len(calls)
    assert beside > 0
    assert [c for c, answers in zip(calls, during, strict=True) if not full_text_ranked(c) and not agree(answers)] == []
    assert picked_up == [True] * SERVERS
    assert [c for c, answers in zip(calls, after, strict=True) if not agree(answers)] == []
