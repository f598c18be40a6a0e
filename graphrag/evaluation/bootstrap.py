"""Stratified paired bootstrap of mean per-query differences.

Queries are resampled with replacement within each stratum (so every replicate keeps the
stratum sizes of the sample), the same resampled queries serve every metric (so metrics stay
paired with each other), and the 95% interval is the percentile interval of 10,000 replicates
from ``numpy.random.default_rng(42)``. Callers must pass queries in a canonical order (the
report sorts by query id), otherwise permuting the input would change the draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

RESAMPLES = 10_000
SEED = 42
LEVEL = 0.95

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class BootstrapResult:
    """Point estimates and percentile intervals, one row per metric."""

    estimate: FloatArray  # (metrics,)
    low: FloatArray  # (metrics,)
    high: FloatArray  # (metrics,)


def replicate_means(
    differences: FloatArray,
    strata: Sequence[str],
    order: Sequence[str],
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> FloatArray:
    """Mean difference of every replicate: shape ``(metrics, resamples)``.

    Strata are drawn in ``order``, one ``integers(0, size, (resamples, size))`` call each,
    which fixes the random stream that the pinned-output test guards.
    """
    if differences.ndim != 2 or differences.shape[1] != len(strata):
        raise ValueError("differences must be (metrics, queries) with one stratum per query")
    labels = np.asarray(strata, dtype=object)
    unknown = set(labels.tolist()) - set(order)
    if unknown:
        raise ValueError(f"strata not in the draw order: {sorted(unknown)}")
    rng = np.random.default_rng(seed)
    totals = np.zeros((differences.shape[0], resamples), dtype=np.float64)
    for stratum in order:
        members = np.flatnonzero(labels == stratum)
        if members.size == 0:
            continue
        draws = rng.integers(0, members.size, size=(resamples, members.size))
        for row in range(differences.shape[0]):
            totals[row] += differences[row, members][draws].sum(axis=1)
    result: FloatArray = totals / differences.shape[1]
    return result


def paired_bootstrap(
    differences: FloatArray,
    strata: Sequence[str],
    order: Sequence[str],
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> BootstrapResult:
    """Mean differences with stratified percentile intervals (linear interpolation)."""
    replicates = replicate_means(differences, strata, order, resamples, seed)
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(replicates, [tail, 100.0 - tail], axis=1)
    return BootstrapResult(estimate=differences.mean(axis=1), low=low, high=high)
