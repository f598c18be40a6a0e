"""Deterministic builders of evaluation inputs (plain JSON dicts) for the evaluator tests.

Queries cycle through the four strata; each arm chunks the sources on its own grid and ranks
the chunk holding the evidence near the top with an arm-specific probability, so a candidate
can be made better, worse or identical by its knobs alone.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from typing import Any

STRATA = ("identifier", "concept", "procedure", "hard")
WORDS = [
    "graph",
    "node",
    "edge",
    "vector",
    "rank",
    "chunk",
    "query",
    "span",
    "evidence",
    "corpus",
    "budget",
    "answer",
    "claim",
]
HASH = "sha256:" + "ab" * 32


@dataclass(frozen=True)
class Arm:
    chunk: int
    hit_rate: float
    supported_rate: float


BASELINE = Arm(chunk=300, hit_rate=0.80, supported_rate=0.97)
CANDIDATE = Arm(chunk=250, hit_rate=0.97, supported_rate=0.99)


def _text(rng: random.Random, length: int) -> str:
    words: list[str] = []
    size = 0
    while size <= length:
        word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
    return " ".join(words)[:length]


def _config(arm: Arm) -> dict[str, Any]:
    return {
        "models": {"embedder": "use-2024.01.15", "generator": "gen-7b@4f2a9c1"},
        "promptHashes": {"answer": HASH},
        "chunker": {"name": "grid", "size": arm.chunk},
        "reranker": {"name": "none"},
        "generation": {"temperature": 0.0, "maxTokens": 512},
        "contextSerialization": {"format": "plain", "separator": "\n\n"},
    }


def _hits(
    rng: random.Random, arm: Arm, prefix: str, evidence: list[dict[str, Any]], sources: dict[str, int]
) -> list[dict[str, Any]]:
    first = evidence[0]
    size = arm.chunk
    home = first["start"] // size
    hits: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(source: str, k: int) -> None:
        chunk_id = f"{prefix}-{source}-{k}"
        if chunk_id in seen:
            return
        seen.add(chunk_id)
        end = min((k + 1) * size, sources[source])
        hits.append({"chunkId": chunk_id, "sourceId": source, "start": k * size, "end": end})

    relevant = rng.random() < arm.hit_rate
    position = rng.randrange(0, 4)
    names = sorted(sources)
    while len(hits) < 20:
        if relevant and len(hits) == position:
            add(first["sourceId"], home)
            add(first["sourceId"], home + 1 if (home + 1) * size < sources[first["sourceId"]] else home - 1)
            continue
        source = rng.choice(names)
        add(source, rng.randrange(0, sources[source] // size))
    return hits[:20]


def _answer(rng: random.Random, arm: Arm, hits: list[dict[str, Any]]) -> dict[str, Any]:
    claims = []
    for index in range(rng.randrange(2, 5)):
        cited = [hit["chunkId"] for hit in hits[:5]] if index == 0 else [hits[index]["chunkId"]]
        claims.append({"text": f"claim {index}", "citations": cited, "supported": rng.random() < arm.supported_rate})
    return {"text": "An answer.", "claims": claims}


def experiment(
    *,
    n_test: int = 240,
    n_dev: int = 60,
    seed: int = 7,
    baseline: Arm = BASELINE,
    candidate: Arm = CANDIDATE,
    judge_accuracy: float = 0.97,
    provenance: str = "recorded",
    origin: str = "wp443",
) -> dict[str, Any]:
    """A complete, valid experiment as the JSON document a runner would write."""
    rng = random.Random(seed)
    sources = {f"doc-{i:03d}": 3000 for i in range(40)}
    queries: list[dict[str, Any]] = []
    for i in range(n_dev + n_test):
        source = rng.choice(sorted(sources))
        start = rng.randrange(0, 2800)
        evidence = [{"sourceId": source, "start": start, "end": start + rng.randrange(30, 120)}]
        queries.append(
            {
                "queryId": f"{'d' if i < n_dev else 't'}{i:05d}",
                "text": f"question number {i}",
                "stratum": STRATA[i % 4],
                "split": "development" if i < n_dev else "test",
                "origin": origin,
                "evidence": evidence,
            }
        )
    arms: dict[str, Any] = {}
    for name, arm in (("baseline", baseline), ("candidate", candidate)):
        arm_rng = random.Random(f"{seed}-{name}")
        runs = []
        for query in queries:
            hits = _hits(arm_rng, arm, name[0], query["evidence"], sources)
            runs.append({"queryId": query["queryId"], "hits": hits, "answer": _answer(arm_rng, arm, hits)})
        arms[name] = {
            "label": f"{name} run",
            "recordedAt": "2025-03-02T10:00:00Z",
            "corpusSnapshotId": "snap-1",
            "config": _config(arm),
            "runs": runs,
        }
    judge_ratings: list[dict[str, Any]] = []
    human_ratings: list[dict[str, Any]] = []
    labels = ("baseline", "candidate", "tie")
    for query in queries[:n_dev]:
        truth = labels[rng.randrange(3)]
        human_ratings.append({"queryId": query["queryId"], "raterId": "rater-1", "preference": truth})
        for order in ("baseline", "candidate"):
            verdict = truth if rng.random() < judge_accuracy else labels[(labels.index(truth) + 1) % 3]
            judge_ratings.append({"queryId": query["queryId"], "presentedFirst": order, "preference": verdict})
    text_rng = random.Random(seed)
    return {
        "schemaVersion": "1.0",
        "experimentId": f"exp-{seed}",
        "provenance": provenance,
        "policy": {
            "registeredAt": "2025-03-01T09:00:00Z",
            "minimumRecallGain": 0.05,
            "maximumPrecisionLoss": 0.02,
            "maximumAnswerLoss": 0.02,
            "contextBudget": 3000,
            "mayDiffer": ["chunker.size"],
        },
        "corpus": {
            "snapshotId": "snap-1",
            "sources": [
                {"sourceId": s, "snapshotId": "snap-1", "text": _text(text_rng, n)} for s, n in sorted(sources.items())
            ],
        },
        "queries": queries,
        "arms": arms,
        "judge": {"model": "judge-model", "revision": "2025-02-11", "promptHash": HASH},
        "judgeRatings": judge_ratings,
        "humanRatings": human_ratings,
    }


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document)


def with_changes(document: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A deep copy with top-level keys replaced."""
    changed = copy.deepcopy(document)
    changed.update(changes)
    return changed
