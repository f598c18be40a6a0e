"""Gates and decision rule, end to end on generated experiments."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from bench.eval_factory import Arm, experiment
from graphrag.evaluation import canonical
from graphrag.evaluation.contract import EvaluationInput
from graphrag.evaluation.gates import Estimate, answer_barrier, practical_gain
from graphrag.evaluation.loading import parse_input
from graphrag.evaluation.report import compare

pytestmark = pytest.mark.fast


def run(document: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return compare(parse_input(json.dumps(document)))


@pytest.fixture
def passing(passing_document: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(passing_document)


def test_a_clear_improvement_is_a_candidate_for_review(passing: dict[str, Any]) -> None:
    outcome, report = run(passing)
    assert outcome == "candidate_for_review", report["reasons"]
    assert report["exitCode"] == 0
    assert report["reasons"] == []
    assert report["comparison"]["queries"] == 240
    assert report["configDifferences"] == ["chunker.size"]
    recall = report["metrics"]["recallAt10"]
    assert recall["difference"] == pytest.approx(recall["candidate"] - recall["baseline"])
    assert recall["interval95"][0] > 0
    assert all(gate["passed"] for gate in report["gates"].values())


@pytest.mark.parametrize("provenance", ["fixture", "synthetic"])
def test_fixture_or_synthetic_input_never_passes(passing: dict[str, Any], provenance: str) -> None:
    passing["provenance"] = provenance
    outcome, report = run(passing)
    assert outcome == "insufficient_evidence"
    assert report["exitCode"] == 1
    assert f"input provenance is '{provenance}'; fixture or synthetic input never passes" in report["reasons"]


def test_synthetic_queries_never_pass_regardless_of_size() -> None:
    outcome, report = run(experiment(n_test=400, origin="synthetic"))
    assert outcome == "insufficient_evidence"
    assert "400 synthetic test queries in the comparison; only real queries may be compared" in report["reasons"]
    assert "0 real held-out test queries, 200 required" in report["reasons"]


def test_fewer_than_two_hundred_test_queries() -> None:
    outcome, report = run(experiment(n_test=199))
    assert outcome == "insufficient_evidence"
    assert report["reasons"] == ["199 real held-out test queries, 200 required"]


def test_every_stratum_must_be_represented(passing: dict[str, Any]) -> None:
    for query in passing["queries"]:
        if query["split"] == "test" and query["stratum"] == "hard":
            query["stratum"] = "concept"
    outcome, report = run(passing)
    assert outcome == "insufficient_evidence"
    assert report["reasons"] == ["no real test queries in strata: hard"]


def test_policy_must_be_registered_before_recording(passing: dict[str, Any]) -> None:
    passing["policy"]["registeredAt"] = passing["arms"]["candidate"]["recordedAt"]
    outcome, report = run(passing)
    assert outcome == "insufficient_evidence"
    assert report["reasons"] == [
        "policy registered at or after the baseline arm was recorded; it must be preregistered",
        "policy registered at or after the candidate arm was recorded; it must be preregistered",
    ]


def test_development_queries_never_enter_the_comparison(passing: dict[str, Any]) -> None:
    leaked = next(q for q in passing["queries"] if q["split"] == "test")
    leaked["text"] = passing["queries"][0]["text"].upper()
    _, report = run(passing)
    assert report["comparison"]["queries"] == 239
    assert report["comparison"]["excluded"] == [
        {"queryId": leaked["queryId"], "reason": f"repeats development query '{passing['queries'][0]['queryId']}'"}
    ]


def test_poor_candidate_answers_fail_the_answer_barrier() -> None:
    outcome, report = run(experiment(candidate=Arm(chunk=250, hit_rate=0.97, supported_rate=0.6)))
    assert outcome == "answer_barrier_failed"
    assert any(r.startswith("candidate supported-claim fraction") for r in report["reasons"])
    assert any(r.startswith("supported-claim fraction difference lower bound") for r in report["reasons"])


def test_identical_arms_show_no_practical_gain() -> None:
    document = experiment(candidate=Arm(chunk=300, hit_rate=0.97, supported_rate=0.99))
    document["arms"]["candidate"] = copy.deepcopy(document["arms"]["baseline"])
    document["policy"]["mayDiffer"] = []
    outcome, report = run(document)
    assert outcome in {"answer_barrier_failed", "no_practical_gain"}
    for block in ("metrics", "answers"):
        for figures in report[block].values():
            assert figures["difference"] == 0.0
            assert figures["interval95"] == [0.0, 0.0]
            assert figures["reading"] == "inconclusive"


def test_strong_identical_arms_fail_on_gain_only() -> None:
    strong = Arm(chunk=300, hit_rate=1.0, supported_rate=1.0)
    document = experiment(baseline=strong, candidate=strong)
    document["arms"]["candidate"] = copy.deepcopy(document["arms"]["baseline"])
    outcome, report = run(document)
    assert outcome == "no_practical_gain"
    assert report["reasons"] == [
        "recall@10 gain 0.000000 is below minimumRecallGain 0.050000",
        "recall@10 gain interval [0.000000, 0.000000] does not lie above zero",
    ]


def test_candidate_worse_than_baseline() -> None:
    outcome, report = run(experiment(baseline=Arm(250, 0.97, 0.99), candidate=Arm(300, 0.6, 0.99)))
    assert outcome in {"answer_barrier_failed", "no_practical_gain"}
    assert report["metrics"]["recallAt10"]["reading"] == "candidate_lower"


@pytest.fixture(scope="module")
def policy_input() -> EvaluationInput:
    return parse_input(json.dumps(experiment(n_test=8, n_dev=4)))


def test_precision_loss_bound(policy_input: EvaluationInput) -> None:
    recall = Estimate(0.5, 0.6, 0.1, 0.02, 0.18)
    assert practical_gain(policy_input, recall, Estimate(0.3, 0.29, -0.01, -0.02, 0.0)).passed
    gate = practical_gain(policy_input, recall, Estimate(0.3, 0.29, -0.01, -0.021, 0.0))
    assert gate.reasons == ["precision@5 difference lower bound -0.021000 is below -maximumPrecisionLoss -0.020000"]


def test_gain_must_meet_the_minimum_and_exclude_zero(policy_input: EvaluationInput) -> None:
    precision = Estimate(0.3, 0.3, 0.0, 0.0, 0.0)
    assert practical_gain(policy_input, Estimate(0.5, 0.55, 0.05, 0.001, 0.1), precision).passed
    assert not practical_gain(policy_input, Estimate(0.5, 0.549, 0.049, 0.001, 0.1), precision).passed
    gate = practical_gain(policy_input, Estimate(0.5, 0.6, 0.1, 0.0, 0.2), precision)
    assert gate.reasons == ["recall@10 gain interval [0.000000, 0.200000] does not lie above zero"]


def test_answer_barrier_thresholds(policy_input: EvaluationInput) -> None:
    good = Estimate(0.9, 0.9, 0.0, -0.02, 0.02)
    assert answer_barrier(policy_input, good, good).passed
    low = Estimate(0.9, 0.849, -0.051, -0.08, -0.02)
    gate = answer_barrier(policy_input, good, low)
    assert gate.reasons == [
        "candidate cited evidence recall 0.849000 is below 0.85",
        "cited evidence recall difference lower bound -0.080000 exceeds the allowed loss 0.020000",
    ]


def test_permuting_queries_runs_and_ratings_changes_nothing(passing: dict[str, Any]) -> None:
    _, expected = run(passing)
    shuffled = copy.deepcopy(passing)
    rng = random.Random(3)
    for items in (
        shuffled["queries"],
        shuffled["arms"]["baseline"]["runs"],
        shuffled["arms"]["candidate"]["runs"],
        shuffled["judgeRatings"],
        shuffled["humanRatings"],
    ):
        rng.shuffle(items)
    _, actual = run(shuffled)
    assert canonical.dumps(actual) == canonical.dumps(expected)


def test_reports_are_byte_identical(passing: dict[str, Any]) -> None:
    assert canonical.dumps(run(passing)[1]) == canonical.dumps(run(passing)[1])
