"""Judge calibration against blind human labels on the development split.

The judge is trusted for entailment only if it agrees with humans (Cohen's kappa) in both
presentation orders separately and rarely changes its mind when the order flips. A missing
judge rating is a disagreement, never a skipped query, so a judge that fails on hard
questions cannot look better by failing.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from graphrag.evaluation.contract import ARM_NAMES, EvaluationInput, Query

MIN_QUERIES = 50
MIN_KAPPA = 0.75
MAX_ORDER_DISAGREEMENT = 0.10
MISSING = "missing"


def normalise_text(text: str) -> str:
    """Case- and whitespace-insensitive form used to count distinct questions."""
    return " ".join(text.casefold().split())


def cohen_kappa(first: Sequence[str], second: Sequence[str]) -> float | None:
    """Cohen's kappa of two label sequences; ``None`` when chance agreement is total."""
    if len(first) != len(second) or not first:
        return None
    n = len(first)
    observed = sum(1 for a, b in zip(first, second, strict=True) if a == b) / n
    left, right = Counter(first), Counter(second)
    expected = sum(left[c] * right[c] for c in left.keys() | right.keys()) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def degenerate(labels: Sequence[str]) -> bool:
    """One constant category: kappa cannot show agreement beyond chance."""
    return len(set(labels)) <= 1


@dataclass
class Calibration:
    queries: int = 0
    duplicate_questions: int = 0
    without_consensus: int = 0
    missing_judge_ratings: int = 0
    kappa_baseline_first: float | None = None
    kappa_candidate_first: float | None = None
    order_disagreement: float | None = None
    degenerate: bool = False
    reasons: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.reasons


def _consensus(labels: list[str]) -> str | None:
    """The strict-majority human label, or ``None`` when raters are split."""
    top, count = Counter(labels).most_common(1)[0]
    return top if count * 2 > len(labels) else None


def _calibration_set(inp: EvaluationInput, result: Calibration) -> list[tuple[Query, str]]:
    human: dict[str, list[str]] = defaultdict(list)
    for rating in inp.human_ratings:
        human[rating.query_id].append(rating.preference)
    chosen: dict[str, tuple[Query, str]] = {}
    for query in sorted(inp.queries, key=lambda q: q.query_id):
        if query.split != "development" or query.query_id not in human:
            continue
        label = _consensus(human[query.query_id])
        if label is None:
            result.without_consensus += 1
            continue
        key = normalise_text(query.text)
        if key in chosen:
            result.duplicate_questions += 1
            continue
        chosen[key] = (query, label)
    return list(chosen.values())


def calibrate(inp: EvaluationInput) -> Calibration:
    """Kappa per order, order disagreement and the reasons the judge is not yet trusted."""
    result = Calibration()
    pairs = _calibration_set(inp, result)
    result.queries = len(pairs)
    judge = {(r.query_id, r.presented_first): r.preference for r in inp.judge_ratings}
    humans = [label for _, label in pairs]
    orders: dict[str, list[str]] = {}
    for order in ARM_NAMES:
        labels: list[str] = [judge.get((query.query_id, order), MISSING) for query, _ in pairs]
        result.missing_judge_ratings += labels.count(MISSING)
        orders[order] = labels
    result.kappa_baseline_first = cohen_kappa(humans, orders["baseline"])
    result.kappa_candidate_first = cohen_kappa(humans, orders["candidate"])
    if pairs:
        flips = sum(1 for a, b in zip(orders["baseline"], orders["candidate"], strict=True) if a != b or a == MISSING)
        result.order_disagreement = flips / len(pairs)
    result.degenerate = bool(pairs) and (
        degenerate(humans) or degenerate(orders["baseline"]) or degenerate(orders["candidate"])
    )
    if result.queries < MIN_QUERIES:
        result.reasons.append(
            f"judge calibrated on {result.queries} distinct development queries, {MIN_QUERIES} required"
        )
    if result.degenerate:
        result.reasons.append("calibration labels use one constant category (degenerate kappa)")
    for name, kappa in (
        ("baseline-first", result.kappa_baseline_first),
        ("candidate-first", result.kappa_candidate_first),
    ):
        if kappa is None or kappa < MIN_KAPPA:
            shown = "undefined" if kappa is None else f"{kappa:.3f}"
            result.reasons.append(f"judge kappa {shown} in {name} order, {MIN_KAPPA} required")
    if result.order_disagreement is None or result.order_disagreement > MAX_ORDER_DISAGREEMENT:
        shown = "undefined" if result.order_disagreement is None else f"{result.order_disagreement:.3f}"
        result.reasons.append(f"judge order disagreement {shown}, at most {MAX_ORDER_DISAGREEMENT} allowed")
    return result
