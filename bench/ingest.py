"""Ingest benchmark: the first ingest on the server, then cold, no-change and one-file-changed runs over a
synthetic pack with bodies, beside
the raw throughput of the embedder alone and of a bare UNWIND write of the same rows (entities, links
and passages, without the service's labels, indexes or diffing).

    python -m bench.ingest --entities 10000

Needs a running Neo4j (``graphrag neo4j start``); the synthetic pack's nodes are deleted before
and after. Vectors go to a temporary embedded Qdrant folder.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.synthetic import entity_id, write_synthetic_pack
from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.stores.graph import BATCH_ROWS, GraphStore
from ingest.phases import batches
from ingest.pipeline import ingest, read_packs
from ingest.plan import Plan, plan
from ingest.report import IngestReport
from ingest.writing import entity_row, passage_rows

PACK = "bench-synthetic"


def _phases(report: IngestReport) -> str:
    keys = ("parse", "neo4j_read", "plan", "embed", "qdrant", "neo4j_write")
    return "  ".join(f"{k}={report.timings.get(k, 0.0):.2f}s" for k in keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--degree", type=int, default=3)
    parser.add_argument("--relation-types", type=int, default=6)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="graphrag-bench-") as tmp:
        root = Path(tmp) / "pack"
        started = time.perf_counter()
        write_synthetic_pack(root, args.entities, args.degree, args.relation_types)
        print(
            f"synthetic pack: {args.entities} entities, degree {args.degree}, "
            f"{args.relation_types} relation types ({time.perf_counter() - started:.1f}s to write)"
        )
        settings = Settings(graphrag_home=Path(tmp) / "home")
        embedder = load_embedder(settings.graphrag_embedder)
        with GraphStore.connect(settings) as graph:
            graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
            try:
                run(root, settings, embedder, graph)
            finally:
                graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")


def run(root: Path, settings: Settings, embedder, graph: GraphStore) -> None:  # type: ignore[no-untyped-def]
    def timed_ingest(home: Path = settings.graphrag_home) -> tuple[float, IngestReport]:
        started = time.perf_counter()
        report = ingest([root], settings.model_copy(update={"graphrag_home": home}), embedder=embedder)
        return time.perf_counter() - started, report

    embedder.embed(["warm-up"])  # load the weights once, outside every measurement
    work = plan(read_packs([root]), {}, [], set())
    graph.write("bench_schema")
    bare_write(graph, work)  # compiles the bare write's queries, as the first ingest compiles the ingest's
    graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
    # The first ingest on a server just started also pays the JVM's compiling of Neo4j's code (about 25 s of CPU
    # at 10,000 entities on two cores, taken from the model), which no later ingest of that server pays: shown
    # on its own line, its vectors in a folder of their own, and removed before the cold run.
    first, report = timed_ingest(root.parent / "first")
    print(f"first on the server: {first:7.2f}s  {_phases(report)}  (the JVM still compiling Neo4j)")
    graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
    cold, report = timed_ingest()
    print(f"cold ingest:         {cold:7.2f}s  {_phases(report)}  ({len(report.added)} added, {report.links} links)")
    same, report = timed_ingest()
    print(f"no-change re-ingest: {same:7.2f}s  {_phases(report)}  = {same / cold:.1%} of cold (target <= 5%)")
    changed = root / "part-0000" / f"{entity_id(0)}.md"
    changed.write_text(changed.read_text(encoding="utf-8").replace('summary: "', 'summary: "edited ', 1))
    one, report = timed_ingest()
    counts = f"{len(report.updated)} updated, {report.embedded} embedded"
    print(f"one file changed:    {one:7.2f}s  {_phases(report)}  ({counts})")

    texts = [e.embedding_text for e in work.valid]
    started = time.perf_counter()
    for start in range(0, len(texts), 256):
        embedder.embed(texts[start : start + 256])
    embed_alone = time.perf_counter() - started
    print(f"embedder alone:      {embed_alone:7.2f}s  ({len(texts) / embed_alone:.0f} summaries/s)")

    bare, counts = bare_write(graph, work)
    print(f"bare UNWIND write:   {bare:7.2f}s  ({counts})")
    print(f"first on the server / (embedder alone + bare write) = {first / (embed_alone + bare):.2f}")
    print(f"cold / (embedder alone + bare write) = {cold / (embed_alone + bare):.2f} (target <= 1.5)")


def bare_write(graph: GraphStore, work: Plan) -> tuple[float, str]:
    """The plainest UNWIND write of the same rows (seconds, and what it wrote), batch by batch as the ingest."""
    rows = [{"id": r["id"], "props": r["props"]} for r in map(entity_row, work.valid)]
    links = [{"source": link.source, "type": link.type, "target": link.target} for link in work.links]
    passages = [row for entity in work.valid for row in passage_rows(entity)]
    started = time.perf_counter()
    for name, all_rows in (
        ("bench_bare_entities", rows),
        ("bench_bare_links", links),
        ("bench_bare_passages", passages),
    ):
        for _, batch in batches(all_rows, BATCH_ROWS):  # one transaction per batch, as the ingest writes
            graph.write(name, rows=batch)
    return time.perf_counter() - started, f"{len(rows)} nodes, {len(links)} links, {len(passages)} passages"


if __name__ == "__main__":
    main()
