"""Team sources: indexing a repository, a one-file push, and what asking GitHub on every call costs search.

    python -m bench.team_sources --pack examples/space-missions --calls 100
    python -m bench.team_sources --pack PATH/TO/corpora/peps

First times hybrid pack_search on the pack ingested as a local pack (the baseline), then removes it. Then
serves the same files from the tests' local GitHub double (loopback: GitHub's own latency is not in these
figures; the calls to it are counted instead), connects them through the real server over HTTP, and prints:
the cold index (connect_source), a reindex after one changed file (blobs downloaded), pack_search p50 on the
team pack (GitHub asked for permission and tree on every call) against the local baseline, and what
disconnect_source leaves (nothing, counted in Neo4j and Qdrant).

Needs the running Neo4j (NEO4J_URI), on a graph that does not hold the pack's ids already (their files would
be rejected as taken); writes the pack there and removes it at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fastmcp import Client
from pydantic import SecretStr

from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from ingest.packs import markdown_files
from ingest.pipeline import ingest
from tests.github.double import APP_ID, DoubleServer, GitHubDouble
from tests.server.conftest import served_over_http

REPOSITORY = "bench/pack"
SOURCE = f"github:{REPOSITORY}"
ACCOUNTS = ("member", "outsider")


def app_keys() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return private.decode(), public.decode()


def p50_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def searches(client: Client[Any], queries: list[str]) -> list[float]:
    await client.call_tool("pack_search", {"query": "warm up"})
    taken = []
    for query in queries:
        started = time.perf_counter()
        await client.call_tool("pack_search", {"query": query})
        taken.append(time.perf_counter() - started)
    return taken


async def run(pack: Path, calls: int, work: Path) -> None:
    private, public = app_keys()
    github = GitHubDouble(public_key=public, repositories={REPOSITORY})
    github.set_permission(REPOSITORY, "member", "read")
    files = markdown_files(pack)
    for path, relative in files:
        github.write(REPOSITORY, relative, path.read_bytes())
    served = DoubleServer(github)
    tokens = work / "tokens.yaml"
    tokens.write_text(
        yaml.safe_dump(
            {
                "projects": {"bench": {}},
                "tokens": [{"name": a, "token": f"{a}-bench-token-01", "project": "bench"} for a in ACCOUNTS],
            }
        ),
        encoding="utf-8",
    )
    settings = Settings(
        graphrag_home=work / "home",
        graphrag_tokens_file=tokens,
        github_api_url=github.url,
        github_app_id=APP_ID,
        github_app_private_key=SecretStr(private),
    )
    embedder = load_embedder(settings.graphrag_embedder)
    titles = [path.stem for path, _ in files]
    queries = [f"what is {titles[i * 7 % len(titles)]} about?" for i in range(calls)]
    local = work / "local"
    for path, relative in files:
        (local / relative).parent.mkdir(parents=True, exist_ok=True)
        (local / relative).write_bytes(path.read_bytes())
    (local / "pack.yaml").write_text("id: bench-local\n", encoding="utf-8")
    with GraphStore.connect(settings) as graph:
        ingest([local], settings, embedder=embedder, graph=graph)
        async with (
            served_over_http(create_server(settings, embedder=embedder, transport="http")) as url,
            Client(f"{url}/mcp", auth="member-bench-token-01") as member,
        ):
            baseline = await searches(member, queries)
        shutil.rmtree(local)
        local.mkdir()
        ingest([local], settings, embedder=embedder, graph=graph)  # no files: its entities and vectors go
        graph.run_auto_commit("bench_cleanup", pack="bench-local", prefix="bench-local:")
    try:
        async with contextlib.AsyncExitStack() as stack:
            url = await stack.enter_async_context(
                served_over_http(create_server(settings, embedder=embedder, transport="http"))
            )
            member, outsider = [
                await stack.enter_async_context(Client(f"{url}/mcp", auth=f"{a}-bench-token-01")) for a in ACCOUNTS
            ]
            for login, client in zip(ACCOUNTS, (member, outsider), strict=True):
                await client.call_tool("github_connect", {"user_token": github.user_token(login)})
            started = time.perf_counter()
            cold = (await member.call_tool("connect_source", {"repository": REPOSITORY})).structured_content or {}
            print(f"{len(files)} files from {pack}")
            print(f"connect_source (cold index): {time.perf_counter() - started:.1f} s, {cold.get('added')} entities")
            changed_path, changed = files[len(files) // 2]
            github.write(REPOSITORY, changed, changed_path.read_bytes() + b"\nOne more line.\n")
            before = sum("/git/blobs/" in r for r in github.requests)
            started = time.perf_counter()
            again = (await member.call_tool("reindex_source", {"source": SOURCE})).structured_content or {}
            downloads = sum("/git/blobs/" in r for r in github.requests) - before
            print(
                f"reindex_source after one edit: {(time.perf_counter() - started) * 1000:.0f} ms, "
                f"{downloads} blob downloaded, updated {again.get('updated')}, unchanged {again.get('unchanged')}"
            )
            requests = len(github.requests)
            team = await searches(member, queries)
            asked = (len(github.requests) - requests) / calls
            outside = await searches(outsider, queries)
            base = p50_ms(baseline)
            print(f"hybrid pack_search over HTTP, {calls} calls each")
            for name, taken in (("local pack (baseline)", baseline), ("team pack, member", team),
                                ("team pack, not connected", outside)):  # fmt: skip
                print(f"  {name:<26} p50 {p50_ms(taken):6.1f} ms  ({p50_ms(taken) / base:.2f}x)")
            print(f"  GitHub requests per member call: {asked:.1f}")
            started = time.perf_counter()
            await member.call_tool("disconnect_source", {"source": SOURCE})
            print(f"disconnect_source: {(time.perf_counter() - started) * 1000:.0f} ms")
        with GraphStore.connect(settings) as graph:
            left: dict[str, Any] = graph.read("github_source_left", id=SOURCE)[0]
        with VectorStore.open(settings) as vectors:
            left["vectors"] = len(vectors.fingerprints([SOURCE]))
        print(f"left of the source: {left}")
    finally:
        served.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pack", type=Path, default=Path("examples/space-missions"))
    parser.add_argument("--calls", type=int, default=100, help="Searches per caller.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="graphrag-bench-teams-") as work:
        asyncio.run(run(args.pack, args.calls, Path(work)))


if __name__ == "__main__":
    main()
