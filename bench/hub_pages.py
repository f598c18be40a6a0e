"""Reading a hub's links page by page with ``pack_get`` (issue 37, item 3): links a page, and each page's time.

    python -m bench.hub_pages --incoming 50000 --outgoing 6000

Ingests into the running Neo4j one pack, ``bench-hub``: a hub with ``--outgoing`` links to placeholders and
``--incoming`` entities that link to it (each embedded: a few minutes for 50,000 on two cores), then
reads every page through the in-process MCP client and prints the pages, the links a page holds (median and
fewest but the last) and the p50/p95/max of a page's time. The pack is dropped afterwards. Goal: 200 or so
links a page at 32,000 bytes, each page under 200 ms.

Measured (2 cores, 24 GiB, shared, load about 1.5) at 50,000 in and 6,000 out: see the issue 37 note.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastmcp import Client

from bench.mcp_tools import percentiles
from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.server.app import create_server
from ingest.pipeline import ingest

PACK = "bench-hub"


def write_hub(root: Path, incoming: int, outgoing: int) -> None:
    """The hub links out to placeholders (one file's frontmatter holds some thousands of ids); each of the
    ``incoming`` files links to the hub."""
    (root / "parts").mkdir(parents=True)
    (root / "pack.yaml").write_text(f"id: {PACK}\n", encoding="utf-8")
    others = ", ".join(f"BH.O{i:05d}" for i in range(outgoing))
    (root / "hub.md").write_text(
        f"---\nid: BH.HUB\nkind: hub\ntitle: The hub\nsummary: Everything is part of it.\n"
        f"related: {{relates_to: [{others}]}}\n---\nThe hub.\n",
        encoding="utf-8",
    )
    for i in range(incoming):
        (root / "parts" / f"{i:06d}.md").write_text(
            f"---\nid: BH.P{i:06d}\nkind: part\ntitle: Part {i}\nsummary: Part number {i} of the hub.\n"
            f"related: {{part_of: [BH.HUB]}}\n---\n",
            encoding="utf-8",
        )


async def read_pages(settings: Settings) -> tuple[list[int], list[float]]:
    sizes, times = [], []
    async with Client(create_server(settings, embedder=load_embedder(settings.graphrag_embedder))) as client:
        cursor: str | None = "start"
        while cursor:
            started = time.perf_counter()
            page: dict[str, Any] = (
                await client.call_tool("pack_get", {"id": "BH.HUB", "cursor": cursor, "format": "metadata"})
            ).structured_content or {}
            times.append(time.perf_counter() - started)
            sizes.append(len(page.get("outgoing") or []) + len(page.get("incoming") or []))
            cursor = page["next_cursor"]
    return sizes, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--incoming", type=int, default=50_000)
    parser.add_argument("--outgoing", type=int, default=6_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        settings = Settings(graphrag_home=Path(work) / "home")
        write_hub(Path(work) / "hub", args.incoming, args.outgoing)
        started = time.perf_counter()
        ingest([Path(work) / "hub"], settings, embedder=load_embedder(settings.graphrag_embedder))
        print(f"hub of {args.incoming:,} in, {args.outgoing:,} out ingested in {time.perf_counter() - started:.1f}s")
        try:
            sizes, times = asyncio.run(read_pages(settings))
        finally:
            home = {**os.environ, "GRAPHRAG_HOME": str(settings.graphrag_home)}
            subprocess.run([sys.executable, "-m", "graphrag.cli", "drop", PACK, "--yes"], check=True, env=home)
    p50, p95 = percentiles(times)
    print(
        f"{len(sizes)} pages, {sum(sizes):,} links: {statistics.median(sizes):.0f} a page (fewest {min(sizes[:-1])});"
        f" a page p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {max(times) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
