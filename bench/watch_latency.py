"""Edit -> searchable with ``graphrag serve --watch``: p50/p95 over a series of saves.

    python -m bench.watch_latency --entities 1000 --edits 20
    python -m bench.watch_latency --pack PATH/TO/PACK --edits 10     # a copy of a real pack

Target (issue figures): p50 at most 0.5 s, p95 at most 0.8 s from the save to the first ``pack_search`` that
returns the new summary. Writes a synthetic pack (bench/synthetic.py), or copies ``--pack``, to a temporary
folder (a real pack's entities with a one-line quoted ``summary:`` are the ones edited), starts
``graphrag serve --watch`` on it over stdio with a temporary embedded Qdrant (the running Neo4j from the
environment), waits for the first ingest, then rewrites one entity's summary at a time and polls
``pack_search`` through the MCP client until a hit carries the new summary (a search every 25 ms, so a
figure includes up to one interval and one search). ``--mode vector`` polls the summary embeddings only,
which the server answers from the vector shard it holds: that is where the save must reach. The pack is
deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
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
from ingest.packs import PackError, open_pack
from ingest.pipeline import check

PACK = "bench-synthetic"
POLL_SECONDS = 0.025  # a search every 25 ms: faster polling would load the server it measures
TIMEOUT_SECONDS = 30.0
FIRST_INGEST_SECONDS = 900.0  # a first ingest that fails in the server (its log says why) must not hang the bench
SUMMARY = re.compile(r'^summary: "(.*)"$', re.MULTILINE)
ID = re.compile(r"^id: *['\"]?([^'\"\s]+)", re.MULTILINE)
Editable = tuple[str, Path]  # (entity id, its file)


def synthetic_files(pack: Path, entities: int) -> list[Editable]:
    return [(entity_id(i), pack / f"part-{i // 100:04d}" / f"{entity_id(i)}.md") for i in range(entities)]


def editable_files(pack: Path) -> list[Editable]:
    """A real pack's files that open with an ``id:`` and carry a one-line quoted summary (sorted, so two runs
    of one pack edit the same files)."""
    found = []
    for path in sorted(pack.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        entity, summary = ID.search(text), SUMMARY.search(text)
        if text.startswith("---") and entity and summary:
            found.append((entity.group(1), path))
    return found


def summary_of(text: str) -> str:
    found = SUMMARY.search(text)
    assert found is not None  # only files with a one-line quoted summary are edited
    return found.group(1)


async def stored(client: Client[Any], entity: str) -> bool:
    result = await client.call_tool("pack_get", {"id": entity, "format": "metadata"}, raise_on_error=False)
    return not result.is_error


async def first_hit(client: Client[Any], query: str, mode: str, wanted: str, summary: str) -> bool:
    result = await client.call_tool("pack_search", {"query": query, "mode": mode, "limit": 5})
    hits = (result.structured_content or {}).get("results", [])
    return any(h["id"] == wanted and h["summary"] == summary for h in hits)


async def measure(pack: Path, home: Path, files: list[Editable], edits: int, mode: str, near: bool) -> list[float]:
    graphrag = str(Path(sys.executable).with_name("graphrag"))
    env = {**os.environ, "GRAPHRAG_HOME": str(home), "GRAPHRAG_LOG_LEVEL": "WARNING"}
    transport = StdioTransport(command=graphrag, args=["serve", "--watch", str(pack)], env=env)
    rng = random.Random(7)
    samples: list[float] = []
    async with Client(transport, timeout=600) as client:
        started = time.perf_counter()
        first_id, first_path = files[0]
        summary = summary_of(first_path.read_text(encoding="utf-8"))
        while not await first_hit(client, summary, "vector", first_id, summary):
            if time.perf_counter() - started > FIRST_INGEST_SECONDS:
                raise SystemExit(f"no first ingest after {FIRST_INGEST_SECONDS:.0f} s: see the server's log")
            await asyncio.sleep(0.5)
        print(f"first ingest of {len(files)} entities inside the server: {time.perf_counter() - started:.1f} s")
        files = [file for file in files if await stored(client, file[0])]  # a file ingest rejects is never found
        for edit in range(edits):
            wanted, path = files[rng.randrange(len(files))]
            text = path.read_text(encoding="utf-8")
            if near:  # the summary as it was, one word added: the new text must still win over the old
                new = f"{summary_of(text)} Revised {edit}."
            else:
                new = (
                    f"Edit {edit}: the orbital tether prototype number {rng.randrange(10**6)} now carries the payload."
                )
            text = SUMMARY.sub(lambda _, new=new: f'summary: "{new}"', text, count=1)
            path.write_text(text, encoding="utf-8")
            saved = time.perf_counter()
            while not await first_hit(client, new, mode, wanted, new):
                if time.perf_counter() - saved > TIMEOUT_SECONDS:
                    raise SystemExit(f"edit {edit} ({wanted}) was not searchable after {TIMEOUT_SECONDS} s")
                await asyncio.sleep(POLL_SECONDS)
            samples.append(time.perf_counter() - saved)
            await asyncio.sleep(0.3)  # saves a person makes, not a burst
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--pack", type=Path, help="Edit a copy of this pack instead of a synthetic one.")
    parser.add_argument("--mode", choices=["hybrid", "vector", "text"], default="hybrid")
    parser.add_argument("--near", action="store_true", help="Each edit adds one word to the summary it replaces.")
    args = parser.parse_args()
    settings = Settings()
    with tempfile.TemporaryDirectory(prefix="bench-watch-") as folder:
        home = Path(folder) / "home"
        if args.pack:
            pack = Path(folder) / args.pack.resolve().name  # a pack without pack.yaml is named by its folder
            shutil.copytree(args.pack, pack)
            files, pack_id, prefix = editable_files(pack), open_pack(pack).manifest.id, "BENCH."
        else:
            pack = Path(folder) / "pack"
            write_synthetic_pack(pack, args.entities)
            files, pack_id, prefix = synthetic_files(pack, args.entities), PACK, "BENCH."
        with GraphStore.connect(settings) as graph:
            try:  # a pack id that Neo4j holds from another folder is refused here, not by the server's first ingest
                check([pack], graph)
            except PackError as exc:
                raise SystemExit(str(exc)) from exc
        try:
            samples = asyncio.run(measure(pack, home, files, args.edits, args.mode, args.near))
        finally:
            with GraphStore.connect(settings) as graph:
                graph.run_auto_commit("bench_cleanup", pack=pack_id, prefix=prefix)
    ordered = sorted(samples)
    p50, p95 = statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]
    print(
        f"save -> pack_search(mode={args.mode}) returns the new summary, {len(samples)} edits of a pack of "
        f"{len(files)} editable entities: p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms "
        f"(min {ordered[0] * 1000:.0f}, max {ordered[-1] * 1000:.0f})"
    )


if __name__ == "__main__":
    main()
