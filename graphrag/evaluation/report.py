"""``compare``: score both arms on the held-out queries and assemble the JSON report.

The report carries every figure the decision used (arm means, paired differences, intervals,
gate checks and reasons) so a reviewer can audit the outcome without rerunning the tool.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphrag.evaluation.bootstrap import LEVEL, RESAMPLES, SEED, paired_bootstrap
from graphrag.evaluation.calibration import (
    MAX_ORDER_DISAGREEMENT,
    MIN_KAPPA,
    MIN_QUERIES,
    Calibration,
    calibrate,
)
from graphrag.evaluation.contract import STRATA, EvaluationInput, Policy, Query, config_differences
from graphrag.evaluation.gates import (
    EXIT_CODES,
    MIN_ANSWER_SCORE,
    MIN_TEST_QUERIES,
    Estimate,
    Gate,
    Outcome,
    answer_barrier,
    decide,
    evidence_gate,
    practical_gain,
)
from graphrag.evaluation.metrics import METRICS, score_query
from graphrag.evaluation.selection import comparison_set

REPORT_VERSION = "1.0"
NOT_CLAIMED = [
    "Outcome 0 means the evidence is ready for an independent decision; it grants no deployment permission.",
    "An interval that includes zero is inconclusive, not evidence of equivalence.",
    "Budgets are UTF-16 characters of retrieved spans, not tokens; headers and parent expansion are not modelled.",
    "Semantic support comes from the recorded judge verdicts; this tool does no entailment itself.",
    "Timestamps, rater ids and provenance labels are declarations, not authentication.",
    "Intervals assume independently sampled queries; paraphrased topic duplicates need human deduplication.",
]


@dataclass(frozen=True)
class Comparison:
    """Per-query scores of both arms, shape ``(metrics, queries)``, in canonical query order."""

    queries: list[Query]
    baseline: np.ndarray[Any, np.dtype[np.float64]]
    candidate: np.ndarray[Any, np.dtype[np.float64]]


def score(inp: EvaluationInput, queries: list[Query]) -> Comparison:
    """Score every comparison query for both arms."""
    budget = inp.policy.context_budget
    arrays = []
    for arm in (inp.arms.baseline, inp.arms.candidate):
        runs = {run.query_id: run for run in arm.runs}
        rows = [
            score_query(q.evidence, runs[q.query_id].hits, runs[q.query_id].answer.claims, budget).as_tuple()
            for q in queries
        ]
        arrays.append(np.array(rows, dtype=np.float64).reshape(len(queries), len(METRICS)).T)
    return Comparison(queries, arrays[0], arrays[1])


def estimates(comparison: Comparison) -> dict[str, Estimate]:
    """Means, paired differences and stratified bootstrap intervals for every metric."""
    if not comparison.queries:
        return {}
    strata = [q.stratum for q in comparison.queries]
    result = paired_bootstrap(comparison.candidate - comparison.baseline, strata, STRATA)
    base, cand = comparison.baseline.mean(axis=1), comparison.candidate.mean(axis=1)
    return {
        metric: Estimate(
            baseline=float(base[i]),
            candidate=float(cand[i]),
            difference=float(result.estimate[i]),
            low=float(result.low[i]),
            high=float(result.high[i]),
        )
        for i, metric in enumerate(METRICS)
    }


def _by_stratum(comparison: Comparison) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for stratum in STRATA:
        mask = np.array([q.stratum == stratum for q in comparison.queries], dtype=bool)
        count = int(mask.sum())
        entry: dict[str, Any] = {"queries": count}
        if count:
            for i, metric in enumerate(METRICS):
                base = float(comparison.baseline[i, mask].mean())
                cand = float(comparison.candidate[i, mask].mean())
                entry[metric] = {"baseline": base, "candidate": cand, "difference": cand - base}
        out[stratum] = entry
    return out


def _estimate(estimate: Estimate | None) -> dict[str, Any] | None:
    if estimate is None:
        return None
    return {
        "baseline": estimate.baseline,
        "candidate": estimate.candidate,
        "difference": estimate.difference,
        "interval95": [estimate.low, estimate.high],
        "reading": estimate.reading,
    }


def _calibration(calibration: Calibration) -> dict[str, Any]:
    return {
        "passed": calibration.passed,
        "distinctDevelopmentQueries": calibration.queries,
        "requiredQueries": MIN_QUERIES,
        "kappaBaselineFirst": calibration.kappa_baseline_first,
        "kappaCandidateFirst": calibration.kappa_candidate_first,
        "requiredKappa": MIN_KAPPA,
        "orderDisagreement": calibration.order_disagreement,
        "maximumOrderDisagreement": MAX_ORDER_DISAGREEMENT,
        "degenerate": calibration.degenerate,
        "missingJudgeRatings": calibration.missing_judge_ratings,
        "withoutHumanConsensus": calibration.without_consensus,
        "duplicateQuestions": calibration.duplicate_questions,
        "reasons": calibration.reasons,
    }


def _gate(gate: Gate, **figures: Any) -> dict[str, Any]:
    return {"passed": gate.passed, "reasons": gate.reasons, **figures}


def _policy(policy: Policy) -> dict[str, Any]:
    return {
        "registeredAt": policy.registered_at.isoformat(),
        "minimumRecallGain": policy.minimum_recall_gain,
        "maximumPrecisionLoss": policy.maximum_precision_loss,
        "maximumAnswerLoss": policy.maximum_answer_loss,
        "contextBudgetUtf16": policy.context_budget,
        "mayDiffer": sorted(policy.may_differ),
    }


def compare(inp: EvaluationInput) -> tuple[Outcome, dict[str, Any]]:
    """The outcome and the full report for one validated experiment."""
    queries, excluded = comparison_set(inp)
    comparison = score(inp, queries)
    figures = estimates(comparison)
    calibration = calibrate(inp)
    evidence = evidence_gate(inp, queries, calibration)
    answers = answer_barrier(inp, figures.get("supportedClaimFraction"), figures.get("citedEvidenceRecall"))
    gain = practical_gain(inp, figures.get("recallAt10"), figures.get("precisionAt5"))
    outcome = decide(evidence, answers, gain)
    origins = Counter(q.origin for q in queries)
    policy = inp.policy
    report: dict[str, Any] = {
        "reportVersion": REPORT_VERSION,
        "inputSchemaVersion": inp.schema_version,
        "experimentId": inp.experiment_id,
        "outcome": outcome,
        "exitCode": EXIT_CODES[outcome],
        "reasons": evidence.reasons + answers.reasons + gain.reasons,
        "arms": {
            name: {"label": arm.label, "recordedAt": arm.recorded_at.isoformat()}
            for name, arm in (("baseline", inp.arms.baseline), ("candidate", inp.arms.candidate))
        },
        "configDifferences": config_differences(inp.arms.baseline.config, inp.arms.candidate.config),
        "policy": _policy(policy),
        "comparison": {
            "queries": len(queries),
            "byOrigin": {origin: origins[origin] for origin in sorted(origins)},
            "byStratum": _by_stratum(comparison),
            "excluded": [{"queryId": e.query_id, "reason": e.reason} for e in excluded],
        },
        "bootstrap": {
            "resamples": RESAMPLES,
            "seed": SEED,
            "level": LEVEL,
            "method": "percentile interval, queries resampled with replacement within each stratum",
        },
        "metrics": {metric: _estimate(figures.get(metric)) for metric in METRICS[:3]},
        "answers": {metric: _estimate(figures.get(metric)) for metric in METRICS[3:]},
        "gates": {
            "evidence": _gate(
                evidence,
                provenance=inp.provenance,
                requiredTestQueries=MIN_TEST_QUERIES,
                calibration=_calibration(calibration),
            ),
            "answerBarrier": _gate(
                answers, minimumCandidateScore=MIN_ANSWER_SCORE, maximumAnswerLoss=policy.maximum_answer_loss
            ),
            "practicalGain": _gate(
                gain, minimumRecallGain=policy.minimum_recall_gain, maximumPrecisionLoss=policy.maximum_precision_loss
            ),
        },
        "notClaimed": NOT_CLAIMED,
    }
    return outcome, report
