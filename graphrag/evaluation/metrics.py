"""Per-query retrieval and answer metrics, exactly as the evaluation page defines them.

All lengths are UTF-16 code units. Recall and coverage look at the packed context (the
rank-ordered prefix that fits the budget); precision looks at the raw ranking, because it is
a ranking metric and must not depend on how much text the budget lets through.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from graphrag.evaluation.spans import Interval, contains, covered_length, fully_covered, merge

RECALL_DEPTH = 10
PRECISION_DEPTH = 5
METRICS = ("recallAt10", "precisionAt5", "coverageAt10", "supportedClaimFraction", "citedEvidenceRecall")


class Located(Protocol):
    @property
    def source_id(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


class ChunkLike(Located, Protocol):
    @property
    def chunk_id(self) -> str: ...


class ClaimLike(Protocol):
    @property
    def citations(self) -> Sequence[str]: ...
    @property
    def supported(self) -> bool: ...


L = TypeVar("L", bound=Located)


def select_context(hits: Sequence[L], budget: int) -> list[L]:
    """The longest rank-ordered prefix whose summed span lengths fit ``budget``.

    The first hit that does not fit ends the context (later, smaller hits are not packed),
    and overlapping hits each pay for their own length, as they would once serialised.
    """
    used = 0
    selected: list[L] = []
    for hit in hits:
        size = hit.end - hit.start
        if used + size > budget:
            break
        used += size
        selected.append(hit)
    return selected


def unions(spans: Iterable[Located]) -> dict[str, list[Interval]]:
    """Merged intervals per source, so overlapping or touching spans count once."""
    grouped: dict[str, list[Interval]] = defaultdict(list)
    for span in spans:
        grouped[span.source_id].append((span.start, span.end))
    return {source: merge(intervals) for source, intervals in grouped.items()}


def full_coverage_fraction(evidence: Sequence[Located], covering: Iterable[Located]) -> float:
    """Share of evidence spans lying wholly inside the union of ``covering``; partial is zero."""
    union = unions(covering)
    covered = sum(1 for e in evidence if fully_covered((e.start, e.end), union.get(e.source_id, [])))
    return covered / len(evidence)


def evidence_recall(evidence: Sequence[Located], selected: Sequence[Located]) -> float:
    """Evidence recall@10 over the first ten hits of the packed context."""
    return full_coverage_fraction(evidence, selected[:RECALL_DEPTH])


def evidence_coverage(evidence: Sequence[Located], selected: Sequence[Located]) -> float:
    """Coverage@10: mean covered share of each evidence span, overlaps counted once."""
    union = unions(selected[:RECALL_DEPTH])
    shares = [covered_length((e.start, e.end), union.get(e.source_id, [])) / (e.end - e.start) for e in evidence]
    return sum(shares) / len(shares)


def evidence_precision(evidence: Sequence[Located], hits: Sequence[Located]) -> float:
    """Precision@5 of the raw ranking: hits containing a whole evidence span, over five."""
    relevant = sum(
        1
        for hit in hits[:PRECISION_DEPTH]
        if any(e.source_id == hit.source_id and contains((hit.start, hit.end), (e.start, e.end)) for e in evidence)
    )
    return relevant / PRECISION_DEPTH


def answer_scores(
    evidence: Sequence[Located], claims: Sequence[ClaimLike], selected: Sequence[ChunkLike]
) -> tuple[float, float]:
    """(supported-claim fraction, evidence covered by supported claims' in-context citations).

    An answer without claims supports nothing, so it scores zero rather than being skipped.
    A citation counts only when the cited chunk is among the first ten packed hits; citations
    of different claims and adjacent chunks may jointly cover one evidence span.
    """
    supported = [claim for claim in claims if claim.supported]
    fraction = len(supported) / len(claims) if claims else 0.0
    context = {hit.chunk_id: hit for hit in selected[:RECALL_DEPTH]}
    cited = [context[chunk] for claim in supported for chunk in claim.citations if chunk in context]
    return fraction, full_coverage_fraction(evidence, cited)


@dataclass(frozen=True)
class QueryScores:
    """The five per-query figures of one arm, in the order of :data:`METRICS`."""

    recall: float
    precision: float
    coverage: float
    supported_claims: float
    cited_evidence: float

    def as_tuple(self) -> tuple[float, float, float, float, float]:
        return (self.recall, self.precision, self.coverage, self.supported_claims, self.cited_evidence)


def score_query(
    evidence: Sequence[Located], hits: Sequence[ChunkLike], claims: Sequence[ClaimLike], budget: int
) -> QueryScores:
    """All per-query figures of one arm for one query."""
    selected = select_context(hits, budget)
    supported, cited = answer_scores(evidence, claims, selected)
    return QueryScores(
        recall=evidence_recall(evidence, selected),
        precision=evidence_precision(evidence, hits),
        coverage=evidence_coverage(evidence, selected),
        supported_claims=supported,
        cited_evidence=cited,
    )
