"""The peer: Neo4j's own GraphRAG package (``neo4j-graphrag``), tuned, on the same packs and questions.

    pip install -e '.[peer]'
    python -m bench.peer QUESTIONS.json [...] [--ours DIR] [--analyzer english|russian]

Its ``HybridRetriever`` searches a vector index and a full-text index over one pack's entities (the same
model embeds the same title and summary the service embeds), and each of its first ``k`` hits is expanded as
a ``HybridCypherRetriever``'s retrieval query would expand it: one and two steps along any relation, either
direction, the neighbours nearest to the question first (``cypher/bench_peer_expand.cypher``, a query of its
own so that it is whole Cypher). It is tuned on the questions it is scored on: for each
question file the setting (ranker, ``k``, whether each hit's neighbours follow it or all hits come first)
with the best mean over the kinds (recall@10; hit@5 for single-hop) is its answer, and per kind the best
setting of that kind is shown too (its upper bound). The package hands the question to Lucene as it is, so
its special characters are escaped first. With ``--ours DIR``, the service's arms of the same files
(``DIR/arm-<file>-hybrid.json``, from ``graphrag eval record``) are scored beside it.

Needs a running Neo4j with the packs ingested; the peer's label, embeddings and indexes are removed after.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from neo4j import Driver, GraphDatabase
from neo4j_graphrag.retrievers import HybridRetriever

from bench.retrieval_eval import Question, QuestionFile, figures
from graphrag.config import Settings
from graphrag.embedding import Embedder, load_embedder
from graphrag.evaluation.contract import Arm
from graphrag.stores.graph import GraphStore

DEPTH = 10
SHOWN = 20  # neighbours per hop and hit
BATCH = 500
KS = (1, 2, 3, 5)
RANKERS: dict[str, dict[str, Any]] = {"naive": {"ranker": "naive"}, "linear.5": {"ranker": "linear", "alpha": 0.5}}
LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


@dataclass(frozen=True)
class Expanded:
    """One hybrid hit of the peer with its neighbours one and two steps away."""

    id: str
    ones: list[str]
    twos: list[str]


def ranking(hits: list[Expanded], k: int, by_hit: bool) -> list[str]:
    """The peer's answer: its first ``k`` hits expanded, either each hit followed by its neighbours or every
    hit first, then every first step, then every second."""
    kept = hits[:k]
    if by_hit:
        order = itertools.chain.from_iterable([h.id, *h.ones, *h.twos] for h in kept)
    else:
        order = itertools.chain([h.id for h in kept], *(h.ones for h in kept), *(h.twos for h in kept))
    return list(dict.fromkeys(order))[:DEPTH]


@contextmanager
def peer_pack(graph: GraphStore, embedder: Embedder, pack: str, analyzer: str) -> Iterator[None]:
    """The pack's entities as the peer's documents, indexed, for the length of the block."""
    try:
        rows = graph.read("bench_peer_texts", pack=pack)
        for start in range(0, len(rows), BATCH):
            batch = rows[start : start + BATCH]
            vectors = embedder.embed([r["text"] for r in batch])
            rows_with = [{"id": r["id"], "vector": v.tolist()} for r, v in zip(batch, vectors, strict=True)]
            graph.write("bench_peer_mark", rows=rows_with)
        graph.ensure_schema(f"bench_peer_schema_{analyzer}")
        print(f"{pack}: {len(rows)} entities embedded and indexed for the peer")
        yield
    finally:
        graph.ensure_schema("bench_peer_drop_indexes")
        graph.run_auto_commit("bench_peer_cleanup")


def peer_hits(
    retriever: HybridRetriever, graph: GraphStore, embedder: Embedder, text: str, setting: dict[str, Any]
) -> list[Expanded]:
    vector = [float(x) for x in embedder.embed([text])[0]]
    found = retriever.get_search_results(
        query_text=LUCENE_SPECIAL.sub(r"\\\1", text), query_vector=vector, top_k=max(KS), **setting
    )
    ids = [record["node"]["id"] for record in found.records]
    rows = graph.read("bench_peer_expand", ids=ids, query_vector=vector, shown=SHOWN) if ids else []
    return [Expanded(r["id"], r["ones"], r["twos"]) for r in rows]


def score(questions: list[Question], answers: dict[str, list[str]]) -> dict[str, float]:
    """Mean recall@10 per kind (hit@5 for single-hop), and over every question."""
    found = figures(questions, answers)
    return {g: f.get("recall@10", f.get("hit@5", 0.0)) for g, f in found.items() if ":lang:" not in g}


def evaluate(path: Path, driver: Driver, graph: GraphStore, embedder: Embedder, args: argparse.Namespace) -> None:
    file = QuestionFile.model_validate_json(path.read_bytes())
    if file.pack is None:
        raise SystemExit(f"{path}: the peer needs the file's pack")
    for q in file.queries:
        q.corpus = path.stem
    with peer_pack(graph, embedder, file.pack, args.analyzer):
        retriever = HybridRetriever(driver, "bench_peer_vectors", "bench_peer_text", return_properties=["id"])
        hits = {
            name: {q.query_id: peer_hits(retriever, graph, embedder, q.text, setting) for q in file.queries}
            for name, setting in RANKERS.items()
        }
    settings = {
        f"{name} k={k} {'by-hit' if by_hit else 'hits-first'}": {
            qid: ranking(found, k, by_hit) for qid, found in hits[name].items()
        }
        for name, k, by_hit in itertools.product(RANKERS, KS, (True, False))
    }
    scored = {name: score(file.queries, answers) for name, answers in settings.items()}
    kinds = [g for g in scored[next(iter(scored))] if g != "all"]
    tuned = max(scored, key=lambda name: sum(scored[name][g] for g in kinds))
    report = {"tuned": tuned, "peer": scored[tuned], "peerBestPerKind": {}}
    for group in scored[tuned]:
        best = max(scored, key=lambda name: scored[name][group])
        report["peerBestPerKind"][group] = {"setting": best, "value": scored[best][group]}
    if args.ours:
        arm = Arm.model_validate_json((args.ours / f"arm-{path.stem}-hybrid.json").read_bytes())
        report["ours"] = score(file.queries, {r.query_id: [h.source_id for h in r.hits] for r in arm.runs})
    (args.out / f"peer-{path.stem}.json").write_text(json.dumps(report, indent=1))
    print(f"== {path.stem}: peer tuned as {tuned}")
    for group, value in scored[tuned].items():
        best = report["peerBestPerKind"][group]
        ours = f"  ours {report['ours'][group]:.3f}" if args.ours else ""
        print(f"  {group:48s} peer {value:.3f} (best {best['value']:.3f}){ours}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("questions", nargs="+", type=Path)
    parser.add_argument("--ours", type=Path, help="folder of the service's recorded hybrid arms")
    parser.add_argument("--analyzer", choices=("english", "russian"), default="english")
    parser.add_argument("--out", type=Path, default=Path("peer-eval"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    settings = Settings()
    embedder = load_embedder(settings.graphrag_embedder)
    auth = (settings.neo4j_user, settings.neo4j_password.get_secret_value())
    with GraphStore.connect(settings) as graph, GraphDatabase.driver(settings.neo4j_uri, auth=auth) as driver:
        for path in args.questions:
            evaluate(path, driver, graph, embedder, args)


if __name__ == "__main__":
    main()
