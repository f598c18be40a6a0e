"""A bounded HTTP load on ``graphrag serve``: concurrent MCP clients making mixed tool calls.

    python -m bench.http_load --clients 8 --calls 250 --entities 10000
    python -m bench.http_load --clients 32 --calls 100000 --seconds 60 --entities 10000   # a minute of 32
    python -m bench.http_load --clients 2 --calls 150 --entities 100000 --keep DIR   # serve's memory at 100k
    GRAPHRAG_EMBEDDER=bench.stored_vectors:from_environment BENCH_VECTOR_BANK=DIR/bank.npy \
        python -m bench.http_load --clients 2 --calls 150 --entities 1000000 --sections 0 --keep DIR  # a million

Ingests a synthetic pack (bench/synthetic.py) into the running Neo4j and a temporary embedded Qdrant
(``--keep DIR``: in DIR, and a later run with the same DIR and size reuses that store without ingesting),
starts ``graphrag serve --transport http`` on a free loopback port as users run it, in a process of its own
that never ingested anything, then lets
``--clients`` MCP clients (streamable HTTP) each make ``--calls`` calls, cycling through pack_search
(hybrid and vector), pack_context, pack_graph, pack_get and the memory ``search``. Prints throughput,
p50/p95/p99 per tool, every error, and the server process's resident memory before and after the calls,
and its peak. Only loopback is ever addressed; every loop is bounded by the call count and a deadline
(``--seconds``, 600 unless given: a client stops calling there).

Measured at 100,000 entities on the Edge shard (``--clients 2 --calls 150``, stored vectors:
``GRAPHRAG_EMBEDDER=bench.stored_vectors:from_environment``, a shared 2-core machine at load average about
10): healthy 44 s after its start; RSS 813 MB before the calls, 852 MB after and at its peak; p50 hybrid
pack_search 381 ms, vector 322 ms, pack_context 392 ms, pack_graph 100 ms, pack_get 61 ms (two clients at
once on two loaded cores).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from fastmcp import Client
from fastmcp.exceptions import ToolError

from bench.synthetic import PACK, entity_id, ingested
from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.stores.graph import GraphStore

DEADLINE_SECONDS = 600
HEALTHY_SECONDS = 300  # at 100,000 entities the server loads its graph copy and vector shard before it answers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def memory_mb(pid: int, field: str = "VmRSS") -> float:
    """A memory figure of a process from Linux /proc, in MB: VmRSS resident now, VmHWM its peak so far."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def call_for(n: int, entities: int) -> tuple[str, str, dict[str, Any]]:
    """The n-th call of a client: (label, tool, arguments), cycling through the mixed workload."""
    target = entity_id(n * 7919 % entities)
    mix: list[tuple[str, str, dict[str, Any]]] = [
        ("search hybrid", "pack_search", {"query": f"what does {target} depend on?"}),
        ("search vector", "pack_search", {"query": f"lunar module fuel {n}", "mode": "vector"}),
        ("context", "pack_context", {"question": f"which rocket engine uses {target}?"}),
        ("graph", "pack_graph", {"id": target, "depth": 3}),
        ("get", "pack_get", {"id": target}),
        ("memory", "search", {"query": "deploy staging database"}),
    ]
    return mix[n % len(mix)]


async def client_run(url: str, calls: int, entities: int, offset: int, deadline: float) -> list[tuple[str, float, str]]:
    """(label, seconds, outcome) of each call; outcome is 'ok' or the error code."""
    out: list[tuple[str, float, str]] = []
    async with Client(url) as client:
        for i in range(calls):
            if time.monotonic() > deadline:
                break
            label, tool, arguments = call_for(offset + i, entities)
            started = time.perf_counter()
            try:
                await client.call_tool(tool, arguments)
                outcome = "ok"
            except ToolError as exc:
                outcome = str(exc).split(":", 1)[0]
            out.append((label, time.perf_counter() - started, outcome))
    return out


async def load(url: str, clients: int, calls: int, entities: int, seconds: float) -> list[tuple[str, float, str]]:
    async with Client(url) as client:  # one record, so the memory workspace is active
        await client.call_tool("save_memory", {"content": "deploy staging database nightly", "source": "bench"})
    deadline = time.monotonic() + seconds
    runs = await asyncio.gather(*(client_run(url, calls, entities, c * calls, deadline) for c in range(clients)))
    return [sample for run in runs for sample in run]


def wait_healthy(url: str, process: subprocess.Popen[bytes]) -> float:
    """Seconds until the server answers its health check."""
    started = time.monotonic()
    while time.monotonic() < started + HEALTHY_SECONDS:
        if process.poll() is not None:
            raise SystemExit(f"graphrag serve exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return time.monotonic() - started
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"graphrag serve did not become healthy in {HEALTHY_SECONDS} s")


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def report(samples: list[tuple[str, float, str]], wall: float, memory: dict[str, float]) -> None:
    print(f"{len(samples)} calls in {wall:.1f}s: {len(samples) / wall:.1f} calls/s")
    print(f"{'tool':<16}{'calls':>7}{'p50':>10}{'p95':>10}{'p99':>10}{'errors':>8}")
    for label in sorted({s[0] for s in samples}):
        times = sorted(t for name, t, _ in samples if name == label)
        errors = sum(1 for name, _, outcome in samples if name == label and outcome != "ok")
        cells = [f"{percentile(times, q):.1f}ms" for q in (0.5, 0.95, 0.99)]
        print(f"{label:<16}{len(times):>7}" + "".join(f"{c:>10}" for c in cells) + f"{errors:>8}")
    codes = Counter(outcome for _, _, outcome in samples if outcome != "ok")
    print(f"errors: {sum(codes.values())} {dict(codes) if codes else ''}")
    print(
        f"server RSS: {memory['before']:.0f} MB before the calls, {memory['after']:.0f} MB after, "
        f"peak {memory['peak']:.0f} MB (VmHWM, since the server started)"
    )
    print(f"overall p50 {statistics.median(t for _, t, _ in samples) * 1000:.1f}ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--calls", type=int, default=250, help="Calls per client.")
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="Folder that keeps the pack and its Qdrant between runs.")
    parser.add_argument("--port", type=int, help="The server's loopback port (default: a free one).")
    parser.add_argument("--sections", type=int, default=3, help="Body sections per entity (bench/synthetic.py).")
    parser.add_argument("--seconds", type=float, default=DEADLINE_SECONDS, help="Clients stop calling after this.")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        work = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="graphrag-bench-load-")))
        settings = Settings(graphrag_home=work / "home")
        with GraphStore.connect(settings) as graph:
            try:
                embedder = load_embedder(settings.graphrag_embedder)
                ingested(work, args.entities, 3, settings, graph, embedder, args.keep is not None, args.sections)
                del embedder  # only the server's own memory is measured, in its own process
                serve(settings, args, args.port or free_port())
            finally:
                if not args.keep:
                    graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")


def serve(settings: Settings, args: argparse.Namespace, port: int) -> None:
    """Start ``graphrag serve --transport http`` on ``port`` over the store, load it, and report."""
    env = {**os.environ, "GRAPHRAG_HOME": str(settings.graphrag_home)}
    command = [sys.executable, "-m", "graphrag.cli", "serve", "--transport", "http", "--port", str(port)]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    with subprocess.Popen(command, env=env, **quiet) as server:
        try:
            ready = wait_healthy(f"http://127.0.0.1:{port}/health", server)
            print(f"server healthy {ready:.1f}s after its start", flush=True)
            memory = {"before": memory_mb(server.pid)}
            started = time.perf_counter()
            url = f"http://127.0.0.1:{port}/mcp"
            samples = asyncio.run(load(url, args.clients, args.calls, args.entities, args.seconds))
            wall = time.perf_counter() - started
            memory |= {"after": memory_mb(server.pid), "peak": memory_mb(server.pid, "VmHWM")}
            report(samples, wall, memory)
        finally:
            server.terminate()


if __name__ == "__main__":
    main()
