"""Reciprocal rank fusion: lists whose scores mean different things (cosine, BM25, walk probability)
are combined by rank alone, each list with a weight; no calibration, robust to one list's outliers.
A list may also scale each candidate by its own score in 0..1 (a name linked with some confidence)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphrag.retrieval.candidates import Candidate


@dataclass(frozen=True)
class Ranked:
    """One list as the fusion takes it."""

    candidates: Sequence[Candidate]
    weight: float
    scaled: bool = False  # each candidate counts its score (0..1) times the weight


def reciprocal_rank(lists: Sequence[Ranked], k: int) -> list[tuple[str, float]]:
    """``(id, sum of weight / (k + rank))`` over every list, best first (ties by id, for stable answers)."""
    scores: dict[str, float] = {}
    for ranked in lists:
        if ranked.weight <= 0:
            continue
        for rank, candidate in enumerate(ranked.candidates, start=1):
            share = ranked.weight * (candidate.score if ranked.scaled else 1.0) / (k + rank)
            scores[candidate.id] = scores.get(candidate.id, 0.0) + share
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
