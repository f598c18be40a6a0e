"""How long a new stdio server takes to give its first answer: what an MCP client that starts the server for
each session (the Inspector CLI, most desktop clients) waits for on every call.

    python -m bench.stdio_start --runs 5
    python -m bench.stdio_start --runs 5 --tool pack_context --query "Which PEP made file descriptors non-inheritable?"

Each run starts `graphrag serve` over stdio with the environment's settings (the stores as they are: ingest
the packs first), connects the SDK's client, and times the connect (the server's start up to the MCP
handshake) and the first tool call after it. Prints each run and the median of each. The figure a user feels
is connect + first call. The first start after an install (or after the model's cache folder was deleted)
writes the model's ready copy and takes about 1.5 s longer; the median leaves it out.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import time

from fastmcp import Client
from fastmcp.client.transports import StdioTransport


async def one(tool: str, query: str) -> tuple[float, float]:
    command = shutil.which("graphrag") or sys.executable
    args = ["serve"] if command != sys.executable else ["-m", "graphrag.cli", "serve"]
    transport = StdioTransport(command=command, args=args, env=dict(os.environ))
    started = time.perf_counter()
    async with Client(transport) as client:
        connected = time.perf_counter()
        argument = "question" if tool == "pack_context" else "query"
        await client.call_tool(tool, {argument: query})
        answered = time.perf_counter()
    return connected - started, answered - connected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tool", default="pack_search", choices=["pack_search", "pack_context"])
    parser.add_argument("--query", default="which PEP describes the style guide for Python code")
    args = parser.parse_args()
    connects, calls = [], []
    for run in range(args.runs):
        connect, call = asyncio.run(one(args.tool, args.query))
        connects.append(connect)
        calls.append(call)
        print(f"run {run + 1}: connect {connect:.2f}s, first {args.tool} {call:.2f}s, total {connect + call:.2f}s")
    total = statistics.median(c + f for c, f in zip(connects, calls, strict=True))
    print(
        f"median: connect {statistics.median(connects):.2f}s, first call {statistics.median(calls):.2f}s, "
        f"first answer {total:.2f}s after the start"
    )
    print("machine: 2 cores, 24 GiB, shared with other engineers' work while measured")


if __name__ == "__main__":
    main()
