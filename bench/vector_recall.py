"""Recall of the embedded engine (a Qdrant Edge shard, HNSW) against an exact scan.

    python -m bench.vector_recall --points 10000 --queries 1000
    python -m bench.vector_recall --stored /tmp/k10/home --queries 1000
    python -m bench.vector_recall --points 1000000 --bank DIR/bank.npy --queries 1000
    python -m bench.vector_recall --points 100000 --bank DIR/bank.npy --qdrant-url http://127.0.0.1:6333

Three sources of vectors. ``--stored HOME``: the shard a run of ``bench.mcp_tools --keep DIR`` left in
``DIR/home`` (the synthetic pack's summaries, embedded by the real model), asked with ``--queries`` texts of
the pack's words embedded by the same model. ``--bank FILE``: ``--points`` stored vectors derived from a bank
of real embeddings (bench/stored_vectors.py, the million-entity bench's stand-in for the model), asked with
texts embedded by the model, in a temporary shard as below. Without either: ``--points`` random Gaussian vectors of the
embedder's 512 dimensions, written with the service's payload (``pack``, ``kind``) into a temporary shard as
ingest writes them (batches, then the optimizer), asked with random vectors: a far harder case for HNSW
than embeddings, which cluster, and no embedding step. Each query asks ``VectorStore.search`` for 10,
without a filter and with a pack filter (a third of the written points); each top 10 is compared with an
exact cosine scan in numpy: recall@10 is the share of the exact ten that the engine found. Prints the
build time, the recall and the engine's latency; ours are shared machines, so figures are noisy.

Measured (2 cores, 24 GiB, shared: load average about 10), 1,000 queries, top 10, search ef 256:
10,000 stored embeddings of the synthetic pack: recall@10 .998 without and with a pack filter (Edge's
default ef of 100 gave .986). 10,000 random vectors: .835 without a filter, 1.000 with one (a third of
the points, under Edge's full-scan threshold, so searched exactly); random 512-d vectors have no
neighbourhood structure for HNSW to use, which is why the stored embeddings are the figure to quote.

1,000,000 stored vectors (``--bank``, load average 4 to 6), 1,000 queries: written in 127 s, indexed by
1,057 s (2,081 s in an earlier run at load average about 10), 4.8 GB resident (2 GB of it this bench's copy
of the vectors). With ACORN for filtered searches, recall@10 without a filter / with a pack filter (a
third of the points), engine p50: ef 256 .888 / .977, 2.8 / 5.6 ms; ef 512 .957 / .993, 1.9 / 8.3 ms;
ef 1024 .987 / .998, 3.4 / 15.5 ms; the service then searched with 1024. Before ACORN, at ef 256: .899
/ .680. Goal .99: met with a filter, not quite without (.987; some queries still find none of the ten:
HNSW's graph, built with Edge's defaults, m 16 and ef_construct 100, leaves them unreachable).

Those figures are of float vectors in memory. A shard made now keeps them on disk and walks an int8 copy in
memory, scoring the best candidates again on the floats (graphrag/stores/edge.py). 200,000 stored vectors
(``--bank``, quiet machine, load average about 1), floats in memory against the int8 copy: indexed by 59.4
against 29.1 s; this bench resident 1,121 against 837 MB (400 MB of it its own copy); recall@10 without /
with a pack filter at ef 1024 .9994 / .9997 against .9987 / .9997, engine p50 3.04 / 9.04 against 1.41 /
6.05 ms; at ef 256 .9848 / .9975 against .9856 / .9979. 1,000,000 stored vectors in the int8 shard (quiet):
written in 59 s, indexed by 171 s, this bench 3,158 MB resident (2 GB of it its own copy); at ef 1024 .9877 /
.9974, engine p50 2.48 / 7.99 ms. That graph was built with Edge's defaults (m 16, ef_construct 100), which
left some points unreachable. Built from more candidates (the same million, partly beside other runs): m 16
and ef_construct 512 (what a new shard now uses) indexed by 731 s, .9993 / .9999, engine p50 3.03 / 16.05
ms; m 32 and ef_construct 256 indexed by 523 s, .9979 / 1.0000, 2.91 / 17.18 ms (ef 2048: .9996 / 1.0000).
A second build of m 16 and ef_construct 512 (806 s), ``--ef 256,512,1024``: .9792 / .9966, .9942 / .9987 and
.9984 / 1.0000, engine p50 2.0 / 6.3, 1.5 / 10.4 and 2.3 / 18.7 ms; the service searches with 512 (hybrid
search's vector list takes CPU that Neo4j's full-text query waits for, docs/scaling.md). 100,000 (44 s):
.9989 / .9996, .9996 / 1.0000 and 1.0000 / 1.0000.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import numpy as np
import numpy.typing as npt

from bench.http_load import memory_mb
from graphrag.config import Settings
from graphrag.stores.edge import COLLECTION
from graphrag.stores.vectors import VectorStore

DIMENSION = 512
BATCH = 1000
PACKS = 3
RANDOM_EMBEDDER = "bench-random"
Matrix = npt.NDArray[np.float32]


def unit(matrix: Matrix) -> Matrix:
    return (matrix / np.linalg.norm(matrix, axis=-1, keepdims=True)).astype(np.float32)


def exact_top10(matrix: Matrix, queries: Matrix, ids: list[str], rows: npt.NDArray[np.int64]) -> list[set[str]]:
    """The exact ten nearest rows (of ``rows``) of each query by cosine, in blocks of queries so a million rows
    are scanned once per block, not copied once per query."""
    chosen = matrix if len(rows) == len(matrix) else matrix[rows]
    tops: list[set[str]] = []
    for start in range(0, len(queries), 100):
        scores = queries[start : start + 100] @ chosen.T
        for line in np.argpartition(-scores, 9, axis=1)[:, :10]:
            tops.append({ids[rows[i]] for i in line})
    return tops


def measure(label: str, store: VectorStore, embedder: str, matrix: Matrix, queries: Matrix, ids: list[str],
            only: str | None, packs: list[str], ef: int | None) -> None:  # fmt: skip
    """Engine top 10 against an exact scan of the rows in pack ``only`` (None: every row), searched with ``ef``
    candidates (None: as many as the engine chooses for the shard)."""
    rows = np.flatnonzero(np.array([only is None or pack == only for pack in packs]))
    exact = exact_top10(matrix, queries, ids, rows)
    found: list[float] = []
    took: list[float] = []
    for query, best in zip(queries, exact, strict=True):
        started = time.perf_counter()
        hits = store.search(query, 10, None if only is None else [only], None, embedder, ef)
        took.append(time.perf_counter() - started)
        found.append(len({str(payload["id"]) for payload, _ in hits} & best) / 10)
    ordered = sorted(took)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    print(
        f"{label:<12} recall@10 {statistics.mean(found):.4f} (lowest {min(found):.1f}) over {len(found)} queries; "
        f"engine p50 {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms"
    )


def model_queries(count: int, seed: int) -> Matrix:
    """``count`` texts of the synthetic pack's words, embedded by the real model."""
    from bench.synthetic import WORDS
    from graphrag.embedding import load_embedder

    embedder = load_embedder("use-multilingual-v3")
    rng = random.Random(seed)
    words = [word for language in WORDS.values() for word in language]
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(2, 8))) for _ in range(count)]
    return unit(embedder.embed(texts).astype(np.float32))


def each_ef(search_efs: list[int | None], measure_both: Callable[[int | None], None]) -> None:
    """Without and with a filter, once per search ef."""
    for ef in search_efs:
        print(f"search ef {ef or 'of the engine'}:")
        measure_both(ef)


def stored(home: Path, count: int, seed: int, search_efs: list[int | None]) -> None:
    queries = model_queries(count, seed)
    with VectorStore.open(Settings(graphrag_home=home)) as store:
        made_with, payloads, matrix = store.snapshot()
        print(f"{len(payloads)} stored vectors ({made_with}) under {home}; {count} embedded queries")
        ids = [str(p["id"]) for p in payloads]
        packs = [str(p["pack"]) for p in payloads]
        matrix = unit(matrix)

        def both(ef: int | None) -> None:
            measure("no filter", store, str(made_with), matrix, queries, ids, None, packs, ef)
            measure("pack filter", store, str(made_with), matrix, queries, ids, packs[0], packs, ef)

        each_ef(search_efs, both)


def written(
    label: str, embedder: str, matrix: Matrix, queries: Matrix, search_efs: list[int | None], server: str | None
) -> None:
    """``matrix`` written with the service's payload (a third of the points in each of three packs) into a
    temporary shard as ingest writes it (batches, then the optimizer), or into the collection of the Qdrant
    server at ``server`` (which indexes by itself: waited for), then measured."""
    points = len(matrix)
    ids = [str(i) for i in range(points)]
    packs = [f"p{i % PACKS}" for i in range(points)]
    with (
        tempfile.TemporaryDirectory(prefix="graphrag-bench-recall-") as work,
        VectorStore.open(Settings(graphrag_home=Path(work), qdrant_url=server)) as store,
    ):
        if server is not None:  # a run before left its points there: start empty
            httpx.delete(f"{server}/collections/{COLLECTION}", timeout=60).raise_for_status()
        started = time.perf_counter()
        store.ensure_collection(embedder, DIMENSION)
        for start in range(0, points, BATCH):
            payloads = [{"id": ids[i], "pack": packs[i], "kind": "k"} for i in range(start, min(start + BATCH, points))]
            store.upsert(payloads, matrix[start : start + BATCH])
        done = time.perf_counter() - started
        store.optimize()
        if server is not None:
            indexed(server)
        built = time.perf_counter() - started
        resident = memory_mb(os.getpid())
        print(f"{points} {label}: written in {done:.1f}s, indexed by {built:.1f}s; resident {resident:.0f} MB")

        def both(ef: int | None) -> None:
            measure("no filter", store, embedder, matrix, queries, ids, None, packs, ef)
            measure("pack filter", store, embedder, matrix, queries, ids, "p1", packs, ef)

        each_ef(search_efs, both)


def indexed(server: str) -> None:
    """Until the server's optimizer has built the collection's index (its status turns green)."""
    while httpx.get(f"{server}/collections/{COLLECTION}", timeout=30).json()["result"]["status"] != "green":
        time.sleep(1)


def generated(points: int, count: int, seed: int, search_efs: list[int | None], server: str | None) -> None:
    rng = np.random.default_rng(seed)
    matrix = unit(rng.standard_normal((points, DIMENSION)).astype(np.float32))
    queries = unit(rng.standard_normal((count, DIMENSION)).astype(np.float32))
    written(f"random {DIMENSION}-d vectors", RANDOM_EMBEDDER, matrix, queries, search_efs, server)


def derived(
    points: int, bank_file: Path, count: int, seed: int, search_efs: list[int | None], server: str | None
) -> None:
    """Stored vectors (bench/stored_vectors.py) of ``points`` distinct texts, asked with model embeddings."""
    from bench.stored_vectors import stored_vectors

    embedder = stored_vectors(bank_file)
    started = time.perf_counter()
    matrix = np.vstack([embedder.derive([f"entity {i}" for i in range(s, min(s + BATCH, points))])
                        for s in range(0, points, BATCH)])  # fmt: skip
    print(f"{points} stored vectors derived in {time.perf_counter() - started:.1f}s ({embedder.id})")
    written("stored vectors", embedder.id, matrix, model_queries(count, seed), search_efs, server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--stored", type=Path, help="A kept bench home (DIR/home of bench.mcp_tools --keep DIR).")
    parser.add_argument("--bank", type=Path, help="Derive --points stored vectors from this bank (made if missing).")
    parser.add_argument(
        "--ef", default="", help="Search ef values to compare, e.g. 256,512,1024 (default: the engine's)."
    )
    parser.add_argument(
        "--qdrant-url",
        help="Write into the Qdrant server at this URL instead of a temporary shard (a server of its own: its "
        "collection `entities` is replaced).",
    )
    args = parser.parse_args()
    search_efs: list[int | None] = [int(ef) for ef in args.ef.split(",") if ef] or [None]
    if args.stored:
        stored(args.stored, args.queries, args.seed, search_efs)
    elif args.bank:
        derived(args.points, args.bank, args.queries, args.seed, search_efs, args.qdrant_url)
    else:
        generated(args.points, args.queries, args.seed, search_efs, args.qdrant_url)
    print("machine: 2 cores, 24 GiB, shared with other engineers' work while measured")


if __name__ == "__main__":
    main()
