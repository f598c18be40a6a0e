"""The server over stores that change or vanish: a new ingest is seen, a lost Neo4j is `unavailable`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError

from graphrag.errors import StoreUnavailable
from graphrag.server.app import create_server
from graphrag.stores import answering
from graphrag.stores.cypher import CypherFile
from graphrag.stores.graph import GraphStore, deadline
from graphrag.stores.vectors import VectorStore
from tests.conftest import EXAMPLES
from tests.server.conftest import served_over_http, write_entity


class BoltProxy:
    """A TCP relay in front of Neo4j that can be cut and restored: a store that goes away mid-session."""

    def __init__(self, target: tuple[str, int]) -> None:
        self._target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._open: list[socket.socket] = []
        self.cut = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            client, _ = self._listener.accept()
            if self.cut:
                client.close()
                continue
            upstream = socket.create_connection(self._target)
            self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                s.close()

    def sever(self) -> None:
        self.cut = True
        for s in self._open:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
        self._open.clear()


async def test_lost_neo4j_is_unavailable_and_the_server_recovers(run_ingest, settings, embedder) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    host, port = settings.neo4j_uri.removeprefix("bolt://").split(":")
    proxy = BoltProxy((host, int(port)))
    mcp = create_server(settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{proxy.port}"}), embedder=embedder)
    async with Client(mcp) as client:
        assert (await client.call_tool("pack_graph", {"id": "SM.MISSION.LUNA9", "depth": 1})).structured_content
        proxy.sever()
        with pytest.raises(ToolError, match=r"^unavailable: Neo4j stopped answering; .*graphrag neo4j start") as lost:
            await client.call_tool("pack_graph", {"id": "SM.MISSION.LUNA9", "depth": 1})
        assert "127.0.0.1" not in str(lost.value) and str(proxy.port) not in str(lost.value)  # the log has those
        proxy.cut = False
        answer = await client.call_tool("pack_get", {"id": "SM.MISSION.LUNA9", "format": "metadata"})
        assert answer.structured_content["title"] == "Луна-9"


async def test_search_sees_a_new_ingest_without_a_restart(tmp_path: Path, run_ingest, client_for) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "growing"
    root.mkdir()
    write_entity(root, "G.1", kind="note", title="Apples", summary="Red apples grow in orchards.")
    run_ingest(root)
    async with client_for() as client:
        first: dict[str, Any] = (await client.call_tool("pack_search", {"query": "rockets"})).structured_content
        assert [h["id"] for h in first["results"]] == ["G.1"]
        write_entity(root, "G.2", kind="note", title="Rockets", summary="Rockets launch spacecraft into orbit.")
        run_ingest(root)  # the server shares the vector shard it holds: the ingest runs while it serves
        await asyncio.sleep(2.1)  # the graph marker is read at most every 2 s
        second = (await client.call_tool("pack_search", {"query": "rockets"})).structured_content
    assert next(h["id"] for h in second["results"]) == "G.2"


async def test_an_ingest_in_another_process_writes_through_the_server_that_holds_the_vectors(  # type: ignore[no-untyped-def]
    tmp_path: Path, run_ingest, client_for, settings
) -> None:
    """`graphrag ingest` beside a running server: the server holds the Edge shard, the ingest's vectors go
    through it (no lock-out, no copy), and a vector search finds them without a reload."""
    root = tmp_path / "growing"
    root.mkdir()
    write_entity(root, "G.1", kind="note", title="Apples", summary="Red apples grow in orchards.")
    run_ingest(root)
    async with client_for() as client:
        await client.call_tool("pack_search", {"query": "apples", "mode": "vector"})
        assert (settings.qdrant_path / "owner.key").is_file()  # the server holds the shard and serves it
        write_entity(root, "G.2", kind="note", title="Rockets", summary="Rockets launch spacecraft into orbit.")
        env = {**os.environ, "GRAPHRAG_HOME": str(settings.graphrag_home)}
        command = [sys.executable, "-m", "graphrag.cli", "ingest", str(root)]
        done = await asyncio.to_thread(subprocess.run, command, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        found = (await client.call_tool("pack_search", {"query": "rockets", "mode": "vector"})).structured_content
    assert next(h["id"] for h in found["results"]) == "G.2"


async def test_health_answers_within_two_seconds_and_names_only_the_store(graph, settings, embedder) -> None:  # type: ignore[no-untyped-def]
    """A lost Neo4j makes the driver retry for seconds; a load balancer still gets its answer in time, and an
    unauthenticated caller learns which store is down, not the driver's text or the address."""
    host, port = settings.neo4j_uri.removeprefix("bolt://").split(":")
    proxy = BoltProxy((host, int(port)))
    mcp = create_server(settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{proxy.port}"}), embedder=embedder)
    async with served_over_http(mcp) as base, httpx.AsyncClient(base_url=base, timeout=10) as http:
        healthy = await http.get("/health")
        proxy.sever()
        answers = []
        for _ in range(3):  # probes in a row: none waits for the one before it to give up
            started = asyncio.get_running_loop().time()
            answers.append((await http.get("/health"), asyncio.get_running_loop().time() - started))
    assert (healthy.status_code, healthy.json()) == (200, {"status": "ok"})
    for answer, seconds in answers:
        assert (answer.status_code, answer.json()) == (503, {"status": "unavailable", "store": "neo4j"})
        assert seconds < 2.0


SLOW = CypherFile("slow", "", "UNWIND range(1, 2000000000) AS x WITH x WHERE x < 0 RETURN count(*) AS n // slow-probe")
RUNNING = (
    "SHOW TRANSACTIONS YIELD transactionId, currentQuery WHERE currentQuery CONTAINS 'slow-probe' "
    "AND NOT currentQuery CONTAINS 'SHOW' RETURN transactionId"
)


def test_a_transaction_ends_at_its_calls_deadline_and_runs_no_longer(graph: GraphStore) -> None:
    started = time.monotonic()
    late = pytest.raises(StoreUnavailable, match=r"^unavailable: the call ran past its deadline")
    with late, answering(), deadline(1.0):
        graph.read_cypher(SLOW)
    assert time.monotonic() - started < 5
    assert graph._driver.execute_query(RUNNING).records == []


def test_a_transaction_the_server_ends_is_unavailable(graph: GraphStore) -> None:
    """What clients meet while Neo4j shuts down: their transactions are terminated under them."""
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            with answering():
                graph.read_cypher(SLOW)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    for _ in range(100):
        records, _, _ = graph._driver.execute_query(RUNNING)
        if records:
            graph._driver.execute_query("TERMINATE TRANSACTIONS $ids", {"ids": [r[0] for r in records]})
            break
        time.sleep(0.1)
    worker.join(timeout=30)
    assert [str(e) for e in outcome] == [
        "unavailable: Neo4j could not answer now (it may be stopping or starting); retry"
    ]


async def test_a_tool_call_past_its_deadline_answers_unavailable(run_ingest, client_for) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    async with client_for(graphrag_call_timeout_seconds=0.001) as client:
        with pytest.raises(ToolError, match=r"^unavailable: the call ran past its deadline; ask for less"):
            await client.call_tool("pack_graph", {"id": "SM.MISSION.LUNA9", "depth": 4})


async def test_a_shard_that_lost_points_is_degraded_and_the_next_ingest_embeds_them(  # type: ignore[no-untyped-def]
    run_ingest, settings, embedder, caplog
) -> None:
    """As when a segment is deleted or a collection cleaned by hand: the vectors are gone, the graph is not."""
    run_ingest(EXAMPLES / "space-missions")
    with VectorStore.open(settings) as vectors:
        vectors.delete(["SM.MISSION.APOLLO11", "SM.MISSION.LUNA9", "SM.PERSON.GAGARIN"])
    async with served_over_http(create_server(settings, embedder=embedder)) as base, httpx.AsyncClient() as http:
        health = (await http.get(f"{base}/health", timeout=10)).json()
    assert health == {"status": "degraded", "store": "qdrant"}
    assert "the vector store holds vectors for 29 of 32 entities" in caplog.text
    lost = "vectors_lost: the vector store holds vectors for 29 of 32 entities; the others are found by words"
    question = {"query": "the first crewed lunar landing"}
    async with Client(create_server(settings, embedder=embedder)) as client:
        for mode in ("hybrid", "vector"):
            answer = await client.call_tool("pack_search", {**question, "mode": mode})
            assert answer.structured_content["hint"].startswith(lost), mode
        assert "hint" not in (await client.call_tool("pack_search", {**question, "mode": "text"})).structured_content
        context = await client.call_tool("pack_context", {"question": question["query"]})
        assert context.structured_content["hint"].startswith(lost)
    assert run_ingest(EXAMPLES / "space-missions").embedded == 3
    async with served_over_http(create_server(settings, embedder=embedder)) as base, httpx.AsyncClient() as http:
        assert (await http.get(f"{base}/health", timeout=10)).json() == {"status": "ok"}
    async with Client(create_server(settings, embedder=embedder)) as client:
        assert "hint" not in (await client.call_tool("pack_search", question)).structured_content
