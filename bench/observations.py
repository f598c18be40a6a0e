"""Search latency with the observations journal off, on, and on with its database unreachable.

    python -m bench.observations --entities 1000 --calls 200

Target (issue figures): hybrid pack_search p50 with the journal on at most 1.2x the p50 without a journal,
and the same with the journal's database unreachable.

Needs the running Neo4j (NEO4J_URI) and the disposable test PostgreSQL (scripts/test-postgres.sh, port in
GRAPHRAG_TEST_POSTGRES_PORT): it rebuilds the journal's database there (migration, roles) as the test suite
does. Ingests a synthetic pack (bench/synthetic.py) into a temporary embedded Qdrant, then serves three
servers over loopback HTTP with a tokens file and times ``--calls`` hybrid searches by an allowlisted account
through FastMCP's client against each, in rounds that alternate the servers (so drift hits all three alike).
Prints p50/p95 per setup, the ratio to "off", and how many observations reached the database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg
import yaml
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from pydantic import SecretStr

from bench.synthetic import entity_id, write_synthetic_pack
from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore
from ingest.pipeline import ingest
from tests.observations.database import fresh_journal
from tests.server.conftest import free_port, served_over_http

PACK = "bench-synthetic"
TOKEN = "bench-pilot-token-000001"
ROUNDS = 10


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


async def run(settings: Settings, entities: int, calls: int, runtime_dsn: str) -> dict[str, list[float]]:
    embedder = load_embedder(settings.graphrag_embedder)
    journal = {
        "graphrag_observations_mode": "text",
        "graphrag_observations_key": SecretStr("bench-key-" + "x" * 40),
        "graphrag_observations_allowlist": frozenset({"bench/pilot"}),
    }
    setups: dict[str, dict[str, Any]] = {
        "off": {},
        "on": {**journal, "graphrag_observations_dsn": SecretStr(runtime_dsn)},
        "unreachable": {
            **journal,
            "graphrag_observations_dsn": SecretStr(f"host=127.0.0.1 port={free_port()} dbname=x user=x"),
        },
    }
    samples: dict[str, list[float]] = {name: [] for name in setups}
    async with contextlib.AsyncExitStack() as stack:
        clients = {}
        for name, update in setups.items():
            url = await stack.enter_async_context(
                served_over_http(create_server(settings.model_copy(update=update), embedder=embedder))
            )
            client = Client(StreamableHttpTransport(f"{url}/mcp", auth=TOKEN))
            clients[name] = await stack.enter_async_context(client)
            await client.call_tool("pack_search", {"query": "warm up"})
        per_round = max(1, calls // ROUNDS)
        for round_number in range(ROUNDS):
            for name, client in clients.items():
                for i in range(per_round):
                    n = round_number * per_round + i
                    question = f"what does {entity_id(n * 7919 % entities)} depend on?"
                    started = time.perf_counter()
                    await client.call_tool("pack_search", {"query": question})
                    samples[name].append(time.perf_counter() - started)
        await asyncio.sleep(1)  # let the last scheduled writes land before counting
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=200, help="Searches per setup.")
    args = parser.parse_args()
    dsns = fresh_journal()
    with contextlib.ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="graphrag-bench-observations-")))
        tokens = work / "tokens.yaml"
        tokens.write_text(
            yaml.safe_dump(
                {"projects": {"bench": {}}, "tokens": [{"name": "pilot", "token": TOKEN, "project": "bench"}]}
            ),
            encoding="utf-8",
        )
        settings = Settings(graphrag_home=work / "home", graphrag_tokens_file=tokens)
        with GraphStore.connect(settings) as graph:
            try:
                graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
                write_synthetic_pack(work / "pack", args.entities, 3, 6, 42)
                ingest([work / "pack"], settings, embedder=load_embedder(settings.graphrag_embedder))
                samples = asyncio.run(run(settings, args.entities, args.calls, dsns.runtime))
            finally:
                graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
    with psycopg.connect(dsns.admin) as connection:
        row = connection.execute("SELECT count(DISTINCT observation_id) FROM retrieval.observation").fetchone()
    base, _ = percentiles(samples["off"])
    print(f"hybrid pack_search over HTTP, {len(samples['off'])} calls per setup, {args.entities} entities")
    print(f"{'journal':<14}{'p50':>10}{'p95':>10}{'p50/off':>10}")
    for name, taken in samples.items():
        p50, p95 = percentiles(taken)
        print(f"{name:<14}{p50:>8.1f}ms{p95:>8.1f}ms{p50 / base:>9.2f}x")
    print(f"observations written by 'on': {row[0] if row else 0} (warm-up included)")


if __name__ == "__main__":
    main()
