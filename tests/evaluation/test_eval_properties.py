"""Invariants that must hold for any input, checked with hypothesis."""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.eval_factory import experiment
from graphrag.evaluation import canonical
from graphrag.evaluation.bootstrap import paired_bootstrap
from graphrag.evaluation.calibration import cohen_kappa
from graphrag.evaluation.contract import Hit, Span
from graphrag.evaluation.loading import parse_input
from graphrag.evaluation.metrics import (
    evidence_coverage,
    evidence_precision,
    evidence_recall,
    select_context,
)
from graphrag.evaluation.report import compare

pytestmark = pytest.mark.fast

ORDER = ("identifier", "concept", "procedure", "hard")


@st.composite
def spans(draw: st.DrawFn) -> tuple[str, int, int]:
    source = draw(st.sampled_from(["s", "t"]))
    start = draw(st.integers(0, 60))
    return source, start, start + draw(st.integers(1, 40))


evidence_lists = st.lists(spans(), min_size=1, max_size=5).map(
    lambda xs: [Span(source_id=s, start=a, end=b) for s, a, b in xs]
)
hit_lists = st.lists(spans(), max_size=14).map(
    lambda xs: [Hit(chunk_id=f"c{i}", source_id=s, start=a, end=b) for i, (s, a, b) in enumerate(xs)]
)


@given(evidence_lists, hit_lists, st.integers(1, 400))
def test_recall_never_exceeds_coverage_and_all_metrics_are_fractions(
    evidence: list[Span], hits: list[Hit], budget: int
) -> None:
    selected = select_context(hits, budget)
    recall, coverage = evidence_recall(evidence, selected), evidence_coverage(evidence, selected)
    precision = evidence_precision(evidence, hits)
    assert 0.0 <= recall <= coverage + 1e-12 <= 1.0 + 1e-12
    assert 0.0 <= precision <= 1.0
    assert precision * 5 == round(precision * 5)


@given(hit_lists, st.integers(0, 400))
def test_context_is_a_prefix_within_budget(hits: list[Hit], budget: int) -> None:
    selected = select_context(hits, budget)
    assert selected == hits[: len(selected)]
    assert sum(h.end - h.start for h in selected) <= budget
    if len(selected) < len(hits):
        nxt = hits[len(selected)]
        assert sum(h.end - h.start for h in selected) + nxt.end - nxt.start > budget


arm_scores = st.lists(
    st.tuples(st.sampled_from(ORDER), st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=40
).filter(lambda rows: any(a != b for _, a, b in rows))  # real differences: the arms disagree somewhere


@settings(max_examples=40, deadline=None)
@given(arm_scores)
def test_swapping_the_arms_negates_the_estimate_and_mirrors_the_interval(rows: list[tuple[str, float, float]]) -> None:
    """The same draws serve both orders, so candidate - baseline and baseline - candidate are exact mirrors."""
    baseline, candidate = np.array([[a for _, a, _ in rows]]), np.array([[b for _, _, b in rows]])
    strata = [s for s, _, _ in rows]
    forward = paired_bootstrap(candidate - baseline, strata, ORDER, resamples=500)
    backward = paired_bootstrap(baseline - candidate, strata, ORDER, resamples=500)
    assert forward.estimate[0] == pytest.approx(float(np.mean(candidate - baseline)), abs=1e-12)
    assert backward.estimate[0] == pytest.approx(-forward.estimate[0], abs=1e-12)
    assert backward.low[0] == pytest.approx(-forward.high[0], abs=1e-9)
    assert backward.high[0] == pytest.approx(-forward.low[0], abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(arm_scores, st.floats(-0.5, 0.5))
def test_a_constant_gain_shifts_estimate_and_interval_by_itself(
    rows: list[tuple[str, float, float]], gain: float
) -> None:
    """A candidate better by ``gain`` on every query moves every replicate mean, so the whole interval, by ``gain``."""
    differences = np.array([[b - a for _, a, b in rows]])
    strata = [s for s, _, _ in rows]
    plain = paired_bootstrap(differences, strata, ORDER, resamples=500)
    shifted = paired_bootstrap(differences + gain, strata, ORDER, resamples=500)
    for before, after in ((plain.estimate, shifted.estimate), (plain.low, shifted.low), (plain.high, shifted.high)):
        assert after[0] == pytest.approx(before[0] + gain, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(ORDER), st.floats(-1, 1)), min_size=1, max_size=40))
def test_interval_lies_within_the_observed_differences(rows: list[tuple[str, float]]) -> None:
    diffs = np.array([[d for _, d in rows]])
    result = paired_bootstrap(diffs, [s for s, _ in rows], ORDER, resamples=500)
    assert diffs.min() - 1e-12 <= result.low[0] <= result.high[0] <= diffs.max() + 1e-12


labels = st.sampled_from(["baseline", "candidate", "tie"])


@given(st.lists(st.tuples(labels, labels), min_size=1, max_size=60))
def test_kappa_is_symmetric_and_at_most_one(pairs: list[tuple[str, str]]) -> None:
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    kappa = cohen_kappa(first, second)
    assert kappa == cohen_kappa(second, first)
    if kappa is not None:
        assert kappa <= 1.0 + 1e-12


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_permuting_queries_changes_nothing(seed: int, shuffle_seed: int) -> None:
    document = experiment(n_test=24, n_dev=6, seed=seed)
    shuffled = copy.deepcopy(document)
    rng = random.Random(shuffle_seed)
    for items in (shuffled["queries"], shuffled["arms"]["baseline"]["runs"], shuffled["arms"]["candidate"]["runs"]):
        rng.shuffle(items)
    reports = [canonical.dumps(compare(parse_input(json.dumps(d)))[1]) for d in (document, shuffled)]
    assert reports[0] == reports[1]
