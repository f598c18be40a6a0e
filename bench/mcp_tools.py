"""MCP tool latency: p50/p95 of each tool through the in-process client, beside the bare store work.

    python -m bench.mcp_tools --entities 1000

Ingests a synthetic pack (bench/synthetic.py) into the running Neo4j and a temporary embedded
Qdrant, then times each tool and the same work done without MCP (the retriever's queries and the
numpy scan), so the server's overhead shows as a ratio. The pack is deleted afterwards, unless
``--keep DIR`` names a folder for the pack and its embedded Qdrant: then a later run with the same
folder and size measures again without ingesting (delete the folder to start over).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastmcp import Client

from bench.synthetic import entity_id, write_synthetic_pack
from graphrag.config import Settings
from graphrag.embedding import Embedder, load_embedder
from graphrag.retrieval.graph import Walk, with_depth
from graphrag.retrieval.vectors import MirrorIndex
from graphrag.retrieval.vocabulary import RelationVocabulary, Step
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore
from ingest.pipeline import ingest

PACK = "bench-synthetic"
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


def bare(settings: Settings, embedder: Embedder, graph: GraphStore, entities: int) -> dict[str, tuple[float, float]]:
    """The same work as each tool, called directly: embed + scan + one query; one neighbourhood query."""
    index = MirrorIndex(settings, graph, embedder.id)
    types = RelationVocabulary(graph).types()
    walk = Walk.of([Step(t, True) for t in types], "both")

    def search(i: int) -> None:
        hits = index.search(embedder.embed([f"rocket engine {i}"])[0], 10, [PACK], None)
        graph.read("search_entities", ids=[h.id for h in hits])

    def neighbourhood(i: int) -> None:
        graph.read_cypher(
            with_depth("graph_neighbourhood", 3),
            id=entity_id(i * 7 % entities),
            forward=walk.forward,
            backward=walk.backward,
            types=walk.types,
            limit=100,
        )

    def entity(i: int) -> None:
        graph.read("get_entity", id=entity_id(i * 7 % entities), offset=0, length=32_000, preview=2000)

    return {"pack_search": timed(search), "pack_graph": timed(neighbourhood), "pack_get": timed(entity)}


async def through_mcp(settings: Settings, embedder: Embedder, entities: int) -> dict[str, tuple[float, float]]:
    async with Client(create_server(settings, embedder=embedder)) as client:
        calls: dict[str, Callable[[int], Awaitable[Any]]] = {
            "pack_search": lambda i: client.call_tool("pack_search", {"query": f"rocket engine {i}", "packs": [PACK]}),
            "pack_graph": lambda i: client.call_tool("pack_graph", {"id": entity_id(i * 7 % entities), "depth": 3}),
            "pack_get": lambda i: client.call_tool("pack_get", {"id": entity_id(i * 7 % entities)}),
        }
        return {name: await timed_async(call) for name, call in calls.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--degree", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="Folder that keeps the pack and its Qdrant between runs.")
    args = parser.parse_args()
    embedder = load_embedder("use-multilingual-v3")
    with contextlib.ExitStack() as stack:
        work = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="graphrag-bench-mcp-")))
        settings = Settings(graphrag_home=work / "home")
        done = work / f"ingested-{args.entities}-{args.degree}"
        with GraphStore.connect(settings) as graph:
            try:
                if not done.exists():
                    graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
                    write_synthetic_pack(work / "pack", args.entities, args.degree, 6, 42)
                    started = time.perf_counter()
                    ingest([work / "pack"], settings, embedder=embedder)
                    print(f"{args.entities} entities ingested in {time.perf_counter() - started:.1f}s")
                    if args.keep:
                        done.touch()
                direct = bare(settings, embedder, graph, args.entities)
                served = asyncio.run(through_mcp(settings, embedder, args.entities))
            finally:
                if not args.keep:
                    graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
    print(f"{'tool':<12} {'MCP p50':>9} {'MCP p95':>9} {'bare p50':>9} {'bare p95':>9} {'ratio p50':>9}")
    for name, (p50, p95) in served.items():
        b50, b95 = direct[name]
        print(f"{name:<12} {p50:>7.1f}ms {p95:>7.1f}ms {b50:>7.1f}ms {b95:>7.1f}ms {p50 / b50:>8.2f}x")


if __name__ == "__main__":
    main()
