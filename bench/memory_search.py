"""p50/p95 of the memory ``search`` tool through the in-process MCP client over N records.

    .venv/bin/python -m bench.memory_search --records 10000
    .venv/bin/python -m bench.memory_search --records 100000 --no-archivist --keep   # goal: p50 <= 30 ms

Uses NEO4J_URI (start a server with ``graphrag neo4j start``); writes a throw-away workspace of the local
project, runs the archivist over it once, measures, and deletes the workspace again.
Seeding is in bulk: ``--seed-batch`` records a transaction through the save tool's own queries, their vectors
embedded in the same batches and stored with the archivist's query, with progress on stderr. Contents are drawn
from a pool of ``--contents`` distinct texts, each embedded once: the model is the slow part of seeding, and a
search's cost depends on how many records hold its words, not on whether two records are equal.
The archivist's whole-workspace run compares every pair of records, which takes long past some 10,000 of
them: ``--no-archivist`` measures without its links (each record still has its vector, as the archivist
stores it after a save). ``--keep`` leaves the workspace (its name is printed) and ``--workspace NAME``
measures an existing one without seeding it again.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
import uuid

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
# Records per transaction: one UNWIND save of 2,000 records and their vectors commits in about a second on a
# quiet machine, far inside the local server's 120 s transaction timeout.
SEED_BATCH = 2000
CONTENTS = 10_000


def new_record(n: int, count: int, content: str, rng: random.Random) -> NewRecord:
    """The n-th of ``count`` records: every third one a version of one of count/10 fact keys."""
    fact_key = f"fact-{n % (count // 10 or 1)}" if n % 3 == 0 else None
    return NewRecord(content=content, scope=rng.choice(["shared", "private"]), source="bench", fact_key=fact_key)


def seed(
    graph: GraphStore,
    embedder: Embedder,
    workspace: str,
    count: int,
    rng: random.Random,
    batch: int = SEED_BATCH,
    contents: int = CONTENTS,
) -> None:
    """``batch`` records per transaction: the save tool's own queries (``save_steps``) and their vectors, as the
    archivist stores them (``memory_set_embeddings``), each distinct content embedded once, a batch at a time."""
    pool = [" ".join(rng.choices(WORDS, k=rng.randint(6, 18))) for _ in range(min(count, contents))]
    embedded: dict[str, list[float]] = {}
    started = time.perf_counter()
    for first in range(0, count, batch):
        records = [new_record(n, count, pool[n % len(pool)], rng) for n in range(first, min(count, first + batch))]
        ids, steps = save_steps(LOCAL_PROJECT, True, workspace, records)
        fresh = list(dict.fromkeys(r.content for r in records if r.content not in embedded))
        embedded.update(zip(fresh, embedder.embed(fresh).tolist(), strict=True))
        rows = [{"id": id_, "embedding": embedded[r.content]} for id_, r in zip(ids, records, strict=True)]
        graph.write_together([*steps, ("memory_set_embeddings", {"rows": rows, "model": embedder.id})])
        done, elapsed = first + len(records), time.perf_counter() - started
        print(f"seeded {done}/{count} records, {done / elapsed:.0f}/s", file=sys.stderr, flush=True)


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
    parser.add_argument("--contents", type=int, default=CONTENTS, help="Distinct record contents (each embedded).")
    parser.add_argument("--keep", action="store_true", help="Keep the seeded workspace for later runs.")
    parser.add_argument(
        "--no-archivist", dest="archivist", action="store_false", help="Seed without the archivist's links."
    )
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
                seed(graph, embedder, workspace, args.records, rng, args.seed_batch, args.contents)
                print(f"saved {args.records} records in {time.perf_counter() - started:.1f} s", flush=True)
                if args.archivist:
                    started = time.perf_counter()
                    run = Archivist(graph, embedder).run(LOCAL_PROJECT, workspace)
                    print(f"archivist: {run.model_dump()} in {time.perf_counter() - started:.1f} s", flush=True)
            mcp = create_server(settings, embedder=embedder)  # the server as `graphrag serve` builds it
            report(asyncio.run(measure(mcp, workspace, args.rounds, rng)))
        finally:
            if args.workspace is None and not args.keep:
                graph.write("memory_delete_workspace", project=LOCAL_PROJECT, workspace=workspace)
            else:
                print(f"kept workspace {workspace} (measure it again with --workspace {workspace})")


if __name__ == "__main__":
    main()
