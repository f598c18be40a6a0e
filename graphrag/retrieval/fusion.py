"""Reciprocal rank fusion: lists whose scores mean different things (cosine, BM25, walk probability)
are combined by rank alone, each list with a weight; no calibration, robust to one list's outliers."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag.retrieval.candidates import Candidate

RRF_K = 10  # rank 1 counts 1/11, rank 10 counts 1/20: the top of each list leads (60, the usual, measured worse)


def reciprocal_rank(rankings: Sequence[Sequence[Candidate]], weights: Sequence[float]) -> list[tuple[str, float]]:
    """``(id, sum of weight / (RRF_K + rank))`` over every list, best first (ties by id, for stable answers)."""
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, candidate in enumerate(ranking, start=1):
            scores[candidate.id] = scores.get(candidate.id, 0.0) + weight / (RRF_K + rank)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
