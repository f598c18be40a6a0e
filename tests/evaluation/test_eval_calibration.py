"""Judge calibration: kappa per order, order disagreement, degenerate and missing ratings."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.eval_factory import experiment
from graphrag.evaluation.calibration import calibrate, cohen_kappa
from graphrag.evaluation.loading import parse_input

pytestmark = pytest.mark.fast


def test_kappa_hand_computed() -> None:
    humans = ["baseline", "baseline", "candidate", "candidate", "tie", "tie"]
    judge = ["baseline", "baseline", "candidate", "tie", "tie", "tie"]
    # p_o = 5/6, p_e = (2*2 + 2*1 + 2*3) / 36 = 1/3, kappa = (5/6 - 1/3) / (2/3) = 0.75
    assert cohen_kappa(humans, judge) == pytest.approx(0.75)
    assert cohen_kappa(humans, humans) == pytest.approx(1.0)


def test_kappa_is_undefined_when_both_raters_are_constant() -> None:
    assert cohen_kappa(["tie"] * 5, ["tie"] * 5) is None
    assert cohen_kappa([], []) is None


def calibrated(document: dict[str, Any]) -> Any:
    return calibrate(parse_input(json.dumps(document)))


def test_a_faithful_judge_passes() -> None:
    result = calibrated(experiment(n_test=8, n_dev=60, judge_accuracy=1.0))
    assert result.passed, result.reasons
    assert result.queries == 60
    assert result.kappa_baseline_first == pytest.approx(1.0)
    assert result.order_disagreement == 0.0


def test_fewer_than_fifty_distinct_development_queries_fail() -> None:
    result = calibrated(experiment(n_test=8, n_dev=49, judge_accuracy=1.0))
    assert result.reasons == ["judge calibrated on 49 distinct development queries, 50 required"]


def test_repeated_question_texts_count_once() -> None:
    document = experiment(n_test=8, n_dev=52, judge_accuracy=1.0)
    for query in document["queries"][:3]:
        query["text"] = "  What is   the budget? "
    result = calibrated(document)
    assert result.queries == 50
    assert result.duplicate_questions == 2
    assert result.passed


def test_missing_judge_rating_counts_as_disagreement() -> None:
    document = experiment(n_test=8, n_dev=60, judge_accuracy=1.0)
    document["judgeRatings"] = [r for r in document["judgeRatings"] if r["queryId"] not in {"d00000", "d00001"}]
    result = calibrated(document)
    assert result.missing_judge_ratings == 4
    assert result.order_disagreement == pytest.approx(2 / 60)
    assert result.kappa_baseline_first is not None and result.kappa_baseline_first < 1.0


def test_order_disagreement_above_ten_percent_fails() -> None:
    document = experiment(n_test=8, n_dev=60, judge_accuracy=1.0)
    flipped = 0
    for rating in document["judgeRatings"]:
        if rating["presentedFirst"] == "candidate" and flipped < 7:
            rating["preference"] = "tie" if rating["preference"] != "tie" else "baseline"
            flipped += 1
    result = calibrated(document)
    assert result.order_disagreement == pytest.approx(7 / 60)
    assert any("order disagreement 0.117" in reason for reason in result.reasons)


def test_one_constant_category_is_degenerate() -> None:
    document = experiment(n_test=8, n_dev=60, judge_accuracy=1.0)
    for rating in document["humanRatings"] + document["judgeRatings"]:
        rating["preference"] = "tie"
    result = calibrated(document)
    assert result.degenerate
    assert result.kappa_baseline_first is None
    assert "calibration labels use one constant category (degenerate kappa)" in result.reasons


def test_split_raters_give_no_consensus() -> None:
    document = experiment(n_test=8, n_dev=60, judge_accuracy=1.0)
    first = document["humanRatings"][0]
    other = "tie" if first["preference"] != "tie" else "baseline"
    document["humanRatings"].append({"queryId": first["queryId"], "raterId": "rater-2", "preference": other})
    result = calibrated(document)
    assert result.without_consensus == 1
    assert result.queries == 59
