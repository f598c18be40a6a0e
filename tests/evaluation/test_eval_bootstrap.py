"""The stratified paired bootstrap: pinned seed-42 output and a loop-by-loop reference."""

from __future__ import annotations

import numpy as np
import pytest

from graphrag.evaluation.bootstrap import RESAMPLES, SEED, paired_bootstrap, replicate_means

pytestmark = pytest.mark.fast

ORDER = ("identifier", "concept", "procedure", "hard")
DIFFS = np.array(
    [
        [0.1, 0.0, 0.5, -0.2, 0.3, 0.0, 1.0, 0.25],
        [0.0, 0.0, 0.2, 0.2, -0.2, 0.0, 0.0, 0.4],
    ]
)
STRATA = ["identifier", "identifier", "concept", "concept", "procedure", "procedure", "hard", "hard"]


def test_pinned_output_for_seed_42() -> None:
    result = paired_bootstrap(DIFFS, STRATA, ORDER)
    assert result.estimate.tolist() == pytest.approx([0.24375, 0.075], abs=1e-12)
    assert result.low.tolist() == pytest.approx([0.0625, 0.0], abs=1e-12)
    assert result.high.tolist() == pytest.approx([0.425, 0.15], abs=1e-12)
    replicates = replicate_means(DIFFS, STRATA, ORDER)
    assert replicates.shape == (2, RESAMPLES)
    assert replicates[0, :6].tolist() == pytest.approx([0.3, 0.24375, 0.24375, 0.4625, 0.3125, 0.31875], abs=1e-12)
    assert replicates[1, :6].tolist() == pytest.approx([0.05, 0.075, 0.075, 0.0, 0.05, 0.075], abs=1e-12)
    assert replicates.mean(axis=1).tolist() == pytest.approx([0.24264, 0.0752625], abs=1e-12)


def test_vectorised_replicates_match_a_plain_loop() -> None:
    rng = np.random.default_rng(SEED)
    members = {s: [i for i, name in enumerate(STRATA) if name == s] for s in ORDER}
    draws = {s: rng.integers(0, len(members[s]), size=(200, len(members[s]))) for s in ORDER}
    expected = np.zeros((2, 200))
    for b in range(200):
        for s in ORDER:
            for j in draws[s][b]:
                expected[:, b] += DIFFS[:, members[s][j]]
    expected /= DIFFS.shape[1]
    assert np.allclose(replicate_means(DIFFS, STRATA, ORDER, resamples=200), expected, atol=1e-12)


def test_resampling_stays_within_strata() -> None:
    # Constant within each stratum: every replicate keeps the stratum sizes, so the mean never moves.
    diffs = np.array([[1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]])
    strata = ["identifier"] * 3 + ["hard"] * 5
    replicates = replicate_means(diffs, strata, ORDER, resamples=500)
    assert np.allclose(replicates, 3 / 8)


def test_identical_arms_give_a_zero_interval() -> None:
    result = paired_bootstrap(np.zeros((3, 12)), ["concept"] * 12, ORDER)
    assert result.estimate.tolist() == [0.0, 0.0, 0.0]
    assert result.low.tolist() == [0.0, 0.0, 0.0]
    assert result.high.tolist() == [0.0, 0.0, 0.0]


def test_rejects_unknown_strata_and_bad_shapes() -> None:
    with pytest.raises(ValueError, match="strata"):
        replicate_means(np.zeros((1, 2)), ["concept", "other"], ORDER)
    with pytest.raises(ValueError, match="metrics, queries"):
        replicate_means(np.zeros(3), ["concept"] * 3, ORDER)
