"""MCP tool latency: p50/p95 of each tool through the in-process client, beside the bare store work, and the
server's start and first hybrid ``pack_search`` after it.

    python -m bench.mcp_tools --entities 1000
    python -m bench.mcp_tools --entities 100000 --bank DIR/bank.npy --keep DIR
    NEO4J_HEAP_SIZE=4g NEO4J_PAGECACHE_SIZE=8g graphrag neo4j start      # then, for a million:
    python -m bench.mcp_tools --entities 1000000 --sections 0 --bank DIR/bank.npy --keep DIR

Targets at 10,000 entities (issue figures): hybrid pack_search p50 <= 20 ms, pack_context p50 <= 80 ms; at
1,000,000: hybrid pack_search and pack_graph depth 3 p50 <= 30 ms, pack_context p50 <= 100 ms, no-change
re-ingest <= 5% of cold.

Ingests a synthetic pack (bench/synthetic.py) into the running Neo4j and a temporary embedded
vector shard, cold and then again with no change, then times each tool and the same work done without MCP
(the retriever's queries and the vector engine's search), so the server's overhead shows as a ratio. The
pack is deleted afterwards, unless ``--keep DIR`` names a folder for the pack and its embedded Qdrant: then
a later run with the same folder and size measures again without ingesting (delete the folder to start
over). ``--bank FILE``: stored vectors (bench/stored_vectors.py) instead of the model's, for every entity
(questions are still embedded by the model): on our shared two cores the model would take hours for a
million. ``--sections 0``: bodies of the summary alone (no sections), so a million files are written and
read in minutes; say so with any figure.

Measured (2 cores, 24 GiB, quiet: load average about 1) at 100,000 entities with the model's embeddings,
p50 (p95): vector pack_search 12.8 ms (17.3), hybrid 21.0 ms (28.7), pack_context 24.4 ms (30.8), pack_graph
depth 3 11.3 ms (18.9), pack_get 5.0 ms (9.3); cold ingest 310 s, no-change re-ingest 4.8% of cold; start
12 s, then the first hybrid call 0.2 s; this process 0.8 GB resident. A million: see docs/scaling.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import mcp.types as mt
from fastmcp import Client
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult

from bench.http_load import memory_mb
from bench.stored_vectors import stored_vectors
from bench.synthetic import PACK, entity_id, ingested
from graphrag.config import Settings
from graphrag.embedding import Embedder, load_embedder
from graphrag.retrieval.graph import Neighbourhood, Walk
from graphrag.retrieval.vector_index import open_vector_index
from graphrag.retrieval.vocabulary import RelationVocabulary, Step
from graphrag.server.app import create_server
from graphrag.server.paging import LINKS_READ
from graphrag.stores.graph import GraphStore

RUNS = 60


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


def timed(work: Callable[[int], Any]) -> tuple[float, float]:
    work(0)
    samples = []
    for i in range(RUNS):
        started = time.perf_counter()
        work(i)
        samples.append(time.perf_counter() - started)
    return percentiles(samples)


async def timed_async(work: Callable[[int], Awaitable[Any]]) -> tuple[float, float]:
    await work(0)
    samples = []
    for i in range(RUNS):
        started = time.perf_counter()
        await work(i)
        samples.append(time.perf_counter() - started)
    return percentiles(samples)


def hybrid_question(i: int, entities: int) -> str:
    """Half name an entity by id (linking and the walk run), half only use words (text and vector)."""
    if i % 2:
        return f"what does {entity_id(i * 13 % entities)} depend on, and which lunar module uses it?"
    return f"lunar module fuel design {i}"


def bare(settings: Settings, embedder: Embedder, graph: GraphStore, entities: int) -> dict[str, tuple[float, float]]:
    """The same work as each tool, called directly: embed + scan + one query; one neighbourhood query."""
    index = open_vector_index(settings, embedder.id)
    types = RelationVocabulary(graph).types()
    walk = Walk.of([Step(t, True) for t in types], "both")

    def search(i: int) -> None:
        hits = index.search(embedder.embed([f"rocket engine {i}"])[0], 10, [PACK], None)
        graph.read("retrieval_entities", ids=[h.id for h in hits])

    def neighbourhood(i: int) -> None:
        Neighbourhood(graph, []).around(entity_id(i * 7 % entities), 3, walk, 100)

    def entity(i: int) -> None:
        graph.read(
            "retrieval_entity",
            id=entity_id(i * 7 % entities),
            offset=0,
            length=32_000,
            skip=0,
            take=LINKS_READ,
            preview=2000,
            hidden=[],
        )

    return {"pack_search": timed(search), "pack_graph": timed(neighbourhood), "pack_get": timed(entity)}


class ServerClock(Middleware):
    """Times each tool call inside the server (arguments parsed, tool run, result serialised), so the
    service's own time shows apart from the client's: the MCP SDK client re-validates every structured
    result against the output schema with jsonschema, which costs more than the service on large answers."""

    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = {}

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        started = time.perf_counter()
        try:
            return await call_next(context)
        finally:
            self.samples.setdefault(context.message.name, []).append(time.perf_counter() - started)


async def through_mcp(
    settings: Settings, embedder: Embedder, entities: int, clock: ServerClock
) -> dict[str, tuple[float, float]]:
    server = create_server(settings, embedder=embedder)
    server.add_middleware(clock)
    started = time.perf_counter()
    async with Client(server) as client:
        opened = time.perf_counter()
        await client.call_tool("pack_search", {"query": hybrid_question(1, entities)})
        first = time.perf_counter() - opened
        print(
            f"start (stores opened, warm-up) {opened - started:.2f} s; "
            f"then the first hybrid pack_search {first * 1000:.0f} ms"
        )
        calls: dict[str, Callable[[int], Awaitable[Any]]] = {
            "pack_search": lambda i: client.call_tool(
                "pack_search", {"query": f"rocket engine {i}", "packs": [PACK], "mode": "vector"}
            ),
            "hybrid": lambda i: client.call_tool("pack_search", {"query": hybrid_question(i, entities)}),
            "context": lambda i: client.call_tool("pack_context", {"question": hybrid_question(i, entities)}),
            "pack_graph": lambda i: client.call_tool("pack_graph", {"id": entity_id(i * 7 % entities), "depth": 3}),
            "pack_get": lambda i: client.call_tool("pack_get", {"id": entity_id(i * 7 % entities)}),
        }
        return {name: await timed_async(call) for name, call in calls.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--degree", type=int, default=3)
    parser.add_argument("--sections", type=int, default=3, help="Body sections per entity (bench/synthetic.py).")
    parser.add_argument("--keep", type=Path, help="Folder that keeps the pack and its Qdrant between runs.")
    parser.add_argument("--bank", type=Path, help="Stored vectors from this bank (bench/stored_vectors.py).")
    args = parser.parse_args()
    embedder = stored_vectors(args.bank) if args.bank else load_embedder("use-multilingual-v3")
    with contextlib.ExitStack() as stack:
        work = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="graphrag-bench-mcp-")))
        settings = Settings(graphrag_home=work / "home")
        with GraphStore.connect(settings) as graph:
            try:
                ingested(
                    work, args.entities, args.degree, settings, graph, embedder, args.keep is not None, args.sections
                )
                direct = bare(settings, embedder, graph, args.entities)
                clock = ServerClock()
                served = asyncio.run(through_mcp(settings, embedder, args.entities, clock))
            finally:
                if not args.keep:
                    graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
    resident = memory_mb(os.getpid())
    print(
        f"resident memory of this process (server, client, bare stores; no ingest on a --keep rerun): {resident:.0f} MB"
    )
    print("MCP = through the in-process client (end to end); server = inside the server; bare = the store work")
    header = ("tool", "MCP p50", "MCP p95", "server p50", "bare p50", "bare p95", "MCP/bare", "server/bare")
    print(f"{header[0]:<12}" + "".join(f"{h:>12}" for h in header[1:]))
    # the first hybrid call after start, then the vector calls, then the hybrid ones (one warm-up each)
    search = clock.samples["pack_search"][1:]
    server_samples = {
        **clock.samples,
        "pack_search": search[: RUNS + 1],
        "hybrid": search[RUNS + 1 :],
        "context": clock.samples["pack_context"],
    }
    for name, (p50, p95) in served.items():
        s50, _ = percentiles(server_samples[name][1:])
        cells = [f"{p50:.1f}ms", f"{p95:.1f}ms", f"{s50:.1f}ms"]
        if name in direct:
            b50, b95 = direct[name]
            cells += [f"{b50:.1f}ms", f"{b95:.1f}ms", f"{p50 / b50:.2f}x", f"{s50 / b50:.2f}x"]
        print(f"{name:<12}" + "".join(f"{c:>12}" for c in cells))
    print("pack_search = mode vector (the bare scan's equal); hybrid = pack_search's default; context = pack_context")


if __name__ == "__main__":
    main()
