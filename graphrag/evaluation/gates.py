"""The four gates and the decision rule that turns them into an outcome and an exit code.

Gates are checked in a fixed precedence: without enough trustworthy evidence nothing else
matters; a candidate that hurts answers is rejected before its retrieval gain is considered.
Every gate is always evaluated so the report lists every reason at once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from graphrag.evaluation.calibration import Calibration
from graphrag.evaluation.contract import REAL_ORIGINS, STRATA, EvaluationInput, Query

MIN_TEST_QUERIES = 200
MIN_ANSWER_SCORE = 0.85
# Tolerance for ">= threshold" on means of rationals, so 0.05 computed as 0.04999999999 still meets 0.05.
EPS = 1e-9

Outcome = Literal["candidate_for_review", "insufficient_evidence", "answer_barrier_failed", "no_practical_gain"]
EXIT_CODES: dict[Outcome, int] = {
    "candidate_for_review": 0,
    "insufficient_evidence": 1,
    "answer_barrier_failed": 1,
    "no_practical_gain": 1,
}


@dataclass(frozen=True)
class Estimate:
    """Arm means, their paired mean difference and its 95% percentile interval."""

    baseline: float
    candidate: float
    difference: float
    low: float
    high: float

    @property
    def reading(self) -> str:
        if self.low > EPS:
            return "candidate_higher"
        if self.high < -EPS:
            return "candidate_lower"
        return "inconclusive"


@dataclass
class Gate:
    passed: bool = True
    reasons: list[str] = field(default_factory=list)

    def fail(self, reason: str) -> None:
        self.passed = False
        self.reasons.append(reason)


def evidence_gate(inp: EvaluationInput, queries: list[Query], calibration: Calibration) -> Gate:
    """Real, preregistered, held-out, stratified evidence with a calibrated judge."""
    gate = Gate()
    if inp.provenance != "recorded":
        gate.fail(f"input provenance is '{inp.provenance}'; fixture or synthetic input never passes")
    synthetic = sum(1 for q in queries if q.origin not in REAL_ORIGINS)
    if synthetic:
        gate.fail(f"{synthetic} synthetic test queries in the comparison; only real queries may be compared")
    real = [q for q in queries if q.origin in REAL_ORIGINS]
    if len(real) < MIN_TEST_QUERIES:
        gate.fail(f"{len(real)} real held-out test queries, {MIN_TEST_QUERIES} required")
    present = Counter(q.stratum for q in real)
    missing = [stratum for stratum in STRATA if present[stratum] == 0]
    if missing:
        gate.fail(f"no real test queries in strata: {', '.join(missing)}")
    for name, arm in (("baseline", inp.arms.baseline), ("candidate", inp.arms.candidate)):
        if inp.policy.registered_at >= arm.recorded_at:
            gate.fail(f"policy registered at or after the {name} arm was recorded; it must be preregistered")
    for reason in calibration.reasons:
        gate.fail(reason)
    return gate


def answer_barrier(inp: EvaluationInput, supported: Estimate | None, cited: Estimate | None) -> Gate:
    """Candidate answers must be well supported and must not lose more than the allowance."""
    gate = Gate()
    if supported is None or cited is None:
        gate.fail("no comparison queries, so answers cannot be assessed")
        return gate
    allowance = inp.policy.maximum_answer_loss
    for name, estimate in (("supported-claim fraction", supported), ("cited evidence recall", cited)):
        if estimate.candidate < MIN_ANSWER_SCORE - EPS:
            gate.fail(f"candidate {name} {estimate.candidate:.6f} is below {MIN_ANSWER_SCORE}")
        if estimate.low < -allowance - EPS:
            gate.fail(f"{name} difference lower bound {estimate.low:.6f} exceeds the allowed loss {allowance:.6f}")
    return gate


def practical_gain(inp: EvaluationInput, recall: Estimate | None, precision: Estimate | None) -> Gate:
    """Recall gain of at least the preregistered size, clearly above zero, at bounded precision cost."""
    gate = Gate()
    if recall is None or precision is None:
        gate.fail("no comparison queries, so no gain can be estimated")
        return gate
    minimum = inp.policy.minimum_recall_gain
    if recall.difference < minimum - EPS:
        gate.fail(f"recall@10 gain {recall.difference:.6f} is below minimumRecallGain {minimum:.6f}")
    if recall.low <= EPS:
        gate.fail(f"recall@10 gain interval [{recall.low:.6f}, {recall.high:.6f}] does not lie above zero")
    loss = inp.policy.maximum_precision_loss
    if precision.low < -loss - EPS:
        gate.fail(f"precision@5 difference lower bound {precision.low:.6f} is below -maximumPrecisionLoss {-loss:.6f}")
    return gate


def decide(evidence: Gate, answers: Gate, gain: Gate) -> Outcome:
    """First failing gate in precedence order, else a candidate for independent review."""
    if not evidence.passed:
        return "insufficient_evidence"
    if not answers.passed:
        return "answer_barrier_failed"
    if not gain.passed:
        return "no_practical_gain"
    return "candidate_for_review"
