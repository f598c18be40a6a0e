"""Shared fixtures of the evaluator tests: small valid experiment documents."""

from __future__ import annotations

from typing import Any

import pytest

from bench.eval_factory import experiment


@pytest.fixture
def small() -> dict[str, Any]:
    """A valid experiment with a handful of queries (fails the evidence gate on size)."""
    return experiment(n_test=8, n_dev=4)


@pytest.fixture(scope="session")
def passing_document() -> dict[str, Any]:
    """A valid experiment that clears every gate (session-scoped; copy before mutating)."""
    return experiment()
