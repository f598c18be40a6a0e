"""Fusion of ranked lists whose scores mean different things (cosine, BM25, walk probability), each list
with a weight: by rank (reciprocal rank fusion: no calibration, robust to one list's outliers), by score
relative to the list's best, or by standard score (how far each score stands above its list's mean: a
list whose first hit stands apart decides; a flat one only breaks ties). A list may also scale each
candidate by its own score in 0..1 (a name linked with some confidence)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from graphrag.retrieval.candidates import Candidate

Method = Literal["rank", "score", "standard"]


@dataclass(frozen=True)
class Ranked:
    """One list as the fusion takes it."""

    candidates: Sequence[Candidate]
    weight: float
    scaled: bool = False  # each candidate counts its score (0..1) times the weight


def reciprocal_rank(lists: Sequence[Ranked], k: int) -> list[tuple[str, float]]:
    """``(id, sum of weight / (k + rank))`` over every list, best first (ties by id, for stable answers)."""
    return fuse(lists, "rank", k)


def fuse(lists: Sequence[Ranked], method: Method, k: int, depth: int = 0) -> list[tuple[str, float]]:
    """``(id, fused score)`` best first (ties by id, for stable answers). ``rank``: the sum of
    ``weight / (k + rank)``; ``score``: the sum of ``weight * score / best score of that list``;
    ``standard``: the sum of ``weight * z``, z being how many standard deviations a score stands above its
    list's mean, the list read as ``depth`` scores (those it did not hold count 0), negatives as 0."""
    scores: dict[str, float] = {}
    for ranked in lists:
        if ranked.weight <= 0 or not ranked.candidates:
            continue
        values = [c.score for c in ranked.candidates]
        best = max(values)
        if method == "standard":
            padded = values + [0.0] * max(0, depth - len(values))
            mean = sum(padded) / len(padded)
            spread = (sum((v - mean) ** 2 for v in padded) / len(padded)) ** 0.5 or 1.0
        for rank, candidate in enumerate(ranked.candidates, start=1):
            if method == "standard":
                share = max(0.0, candidate.score - mean) / spread * (candidate.score if ranked.scaled else 1.0)
            elif method == "rank" or ranked.scaled:
                share = (candidate.score if ranked.scaled else 1.0) / (k + rank)
            else:
                share = candidate.score / best if best > 0 else 0.0
            scores[candidate.id] = scores.get(candidate.id, 0.0) + ranked.weight * share
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def agreement(lists: Sequence[Ranked], entity_id: str) -> float:
    """How sure the lists together are of an entity: each list's share of the weight over the rank it gives
    the entity (1: every list that found anything puts it first; a half where each puts it second, as when
    words put one start first and meaning another, and both put this one next; 0: none found it)."""
    weighed = [ranked for ranked in lists if ranked.candidates and ranked.weight > 0]
    total = sum(ranked.weight for ranked in weighed)
    share = 0.0
    for ranked in weighed:
        rank = next((r for r, c in enumerate(ranked.candidates, start=1) if c.id == entity_id), None)
        if rank is not None:
            share += ranked.weight / rank
    return share / total if total > 0 else 0.0


def stands_apart(candidates: Sequence[Candidate], ratio: float) -> bool:
    """Whether a list's first score is at least ``ratio`` times its second (a list of one has no second to
    stand apart from)."""
    return ratio > 0 and len(candidates) >= 2 and candidates[0].score >= ratio * candidates[1].score > 0


def agreed(lists: Sequence[Ranked]) -> str | None:
    """The entity two or more lists put first, every list that found anything agreeing (their weights aside):
    one list alone (full text reading nothing of a Russian question) agrees with nobody."""
    firsts = [ranked.candidates[0].id for ranked in lists if ranked.candidates]
    return firsts[0] if len(firsts) >= 2 and len(set(firsts)) == 1 else None
