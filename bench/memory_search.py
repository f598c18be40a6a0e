"""p50/p95 of the memory ``search`` tool through the in-process MCP client over N records.

    .venv/bin/python -m bench.memory_search --records 10000

Uses NEO4J_URI (start a server with ``graphrag neo4j start``); writes a throw-away workspace of the local
project, runs the archivist over it once, measures, and deletes the workspace again.
Seeding 10,000 records takes a while: ``--keep`` leaves the workspace (its name is printed) and
``--workspace NAME`` measures an existing one without seeding it again.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import uuid
from typing import Any

from fastmcp import Client, FastMCP

from graphrag.config import Settings
from graphrag.embedding import Embedder, load_embedder
from graphrag.memory.archivist import Archivist
from graphrag.memory.records import NewRecord, save_steps
from graphrag.memory.schema import ensure_memory_schema
from graphrag.server.access import LOCAL_PROJECT
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore

WORDS = (
    "deploy staging prod backup database cache token rotate nightly release window pipeline systemd unit "
    "кластер выкатывается бэкап база ночью ключи ротация релиз окно пайплайн сервис юнит "
    "部署 测试 环境 数据库 备份 缓存 发布 窗口"
).split()
QUERIES = {
    "two words": lambda rng: " ".join(rng.sample(WORDS, 2)),
    "four words": lambda rng: " ".join(rng.sample(WORDS, 4)),
    "latest (empty)": lambda rng: "",
    "no match (expansion)": lambda rng: f"zzz{rng.randrange(10**6)} qqq",
}
SEED_BATCH = 500  # records per transaction: one commit per save made seeding 10,000 records take ~95 s


def seed(graph: GraphStore, workspace: str, count: int, rng: random.Random, batch: int = SEED_BATCH) -> None:
    """The save tool's own queries (``save_steps``), ``batch`` records per transaction (1: exactly as ``save``)."""
    steps: list[tuple[str, dict[str, Any]]] = []
    for n in range(count):
        content = " ".join(rng.choices(WORDS, k=rng.randint(6, 18)))
        fact_key = f"fact-{n % (count // 10 or 1)}" if n % 3 == 0 else None
        new = NewRecord(content=content, scope=rng.choice(["shared", "private"]), source="bench", fact_key=fact_key)
        steps += save_steps(LOCAL_PROJECT, True, workspace, new)[1]
        if (n + 1) % batch == 0 or n + 1 == count:
            graph.write_together(steps)
            steps = []


async def measure(mcp: FastMCP, workspace: str, rounds: int, rng: random.Random) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {name: [] for name in QUERIES}
    async with Client(mcp) as client:
        await client.call_tool("search", {"query": "warm up", "workspace": workspace})
        for _ in range(rounds):
            for name, make in QUERIES.items():
                started = time.perf_counter()
                await client.call_tool("search", {"query": make(rng), "workspace": workspace, "limit": 10})
                timings[name].append((time.perf_counter() - started) * 1000)
    return timings


def report(timings: dict[str, list[float]]) -> None:
    def line(name: str, values: list[float]) -> str:
        cuts = statistics.quantiles(values, n=20)
        return f"{name:<22} n={len(values):<5} p50={statistics.median(values):7.1f} ms  p95={cuts[18]:7.1f} ms"

    for name, values in timings.items():
        print(line(name, values))
    print(line("all", [v for values in timings.values() for v in values]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=100, help="Queries of each kind.")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workspace", help="Measure this existing (seeded) workspace; it is kept.")
    parser.add_argument("--seed-batch", type=int, default=SEED_BATCH, help="Records saved per transaction.")
    parser.add_argument("--keep", action="store_true", help="Keep the seeded workspace for later runs.")
    args = parser.parse_args(argv)
    settings = Settings()
    rng = random.Random(args.seed)
    workspace = args.workspace or f"bench-{uuid.uuid4().hex[:8]}"
    embedder: Embedder = load_embedder(settings.graphrag_embedder)
    with GraphStore.connect(settings) as graph:
        ensure_memory_schema(graph)
        try:
            if args.workspace is None:
                started = time.perf_counter()
                seed(graph, workspace, args.records, rng, args.seed_batch)
                print(f"saved {args.records} records in {time.perf_counter() - started:.1f} s")
                started = time.perf_counter()
                run = Archivist(graph, embedder).run(LOCAL_PROJECT, workspace)
                print(f"archivist: {run.model_dump()} in {time.perf_counter() - started:.1f} s")
            mcp = create_server(settings, embedder=embedder)  # the server as `graphrag serve` builds it
            report(asyncio.run(measure(mcp, workspace, args.rounds, rng)))
        finally:
            if args.workspace is None and not args.keep:
                graph.write("memory_delete_workspace", project=LOCAL_PROJECT, workspace=workspace)
            else:
                print(f"kept workspace {workspace} (measure it again with --workspace {workspace})")


if __name__ == "__main__":
    main()
