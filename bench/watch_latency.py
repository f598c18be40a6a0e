"""Edit -> searchable with ``graphrag serve --watch``: p50/p95 over a series of saves.

    python -m bench.watch_latency --entities 1000 --edits 20

Target (issue figures): p50 at most 0.5 s from the save to the first ``pack_search`` that returns the new
summary. Writes a synthetic pack (bench/synthetic.py) to a temporary folder, starts ``graphrag serve --watch``
on it over stdio with a temporary embedded Qdrant (the running Neo4j from the environment), waits for the
first ingest, then rewrites one entity's summary at a time and polls ``pack_search`` through the MCP client
until a hit carries the new summary (a search every 25 ms, so a figure includes up to one interval and
one search). ``--mode vector`` polls the summary embeddings only, which the server
answers from its in-memory mirror: that is the copy the save must reach. The pack is deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from bench.synthetic import entity_id, write_synthetic_pack
from graphrag.config import Settings
from graphrag.stores.graph import GraphStore

PACK = "bench-synthetic"
POLL_SECONDS = 0.025  # a search every 25 ms: faster polling would load the server it measures
TIMEOUT_SECONDS = 30.0
SUMMARY = re.compile(r'^summary: ".*"$', re.MULTILINE)


async def first_hit(client: Client[Any], query: str, mode: str, wanted: str, summary: str) -> bool:
    result = await client.call_tool("pack_search", {"query": query, "mode": mode, "limit": 5})
    hits = (result.structured_content or {}).get("results", [])
    return any(h["id"] == wanted and h["summary"] == summary for h in hits)


async def measure(pack: Path, home: Path, entities: int, edits: int, mode: str) -> list[float]:
    graphrag = str(Path(sys.executable).with_name("graphrag"))
    env = {**os.environ, "GRAPHRAG_HOME": str(home), "GRAPHRAG_LOG_LEVEL": "WARNING"}
    transport = StdioTransport(command=graphrag, args=["serve", "--watch", str(pack)], env=env)
    rng = random.Random(7)
    samples: list[float] = []
    async with Client(transport, timeout=600) as client:
        started = time.perf_counter()
        first = (pack / "part-0000" / f"{entity_id(0)}.md").read_text(encoding="utf-8")
        summary = SUMMARY.search(first).group(0)[len('summary: "') : -1]  # type: ignore[union-attr]
        while not await first_hit(client, summary, "vector", entity_id(0), summary):
            await asyncio.sleep(0.5)
        print(f"first ingest of {entities} entities inside the server: {time.perf_counter() - started:.1f} s")
        for edit in range(edits):
            index = rng.randrange(entities)
            path = pack / f"part-{index // 100:04d}" / f"{entity_id(index)}.md"
            new = f"Edit {edit}: the orbital tether prototype number {rng.randrange(10**6)} now carries the payload."
            text = SUMMARY.sub(f'summary: "{new}"', path.read_text(encoding="utf-8"), count=1)
            path.write_text(text, encoding="utf-8")
            saved = time.perf_counter()
            while not await first_hit(client, new, mode, entity_id(index), new):
                if time.perf_counter() - saved > TIMEOUT_SECONDS:
                    raise SystemExit(f"edit {edit} was not searchable after {TIMEOUT_SECONDS} s")
                await asyncio.sleep(POLL_SECONDS)
            samples.append(time.perf_counter() - saved)
            await asyncio.sleep(0.3)  # saves a person makes, not a burst
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--mode", choices=["hybrid", "vector", "text"], default="hybrid")
    args = parser.parse_args()
    settings = Settings()
    with tempfile.TemporaryDirectory(prefix="bench-watch-") as folder:
        pack, home = Path(folder) / "pack", Path(folder) / "home"
        write_synthetic_pack(pack, args.entities)
        try:
            samples = asyncio.run(measure(pack, home, args.entities, args.edits, args.mode))
        finally:
            with GraphStore.connect(settings) as graph:
                graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
    ordered = sorted(samples)
    p50, p95 = statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]
    print(
        f"save -> pack_search(mode={args.mode}) returns the new summary, {len(samples)} edits of a pack of "
        f"{args.entities}: p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms (min {ordered[0] * 1000:.0f}, "
        f"max {ordered[-1] * 1000:.0f})"
    )


if __name__ == "__main__":
    main()
