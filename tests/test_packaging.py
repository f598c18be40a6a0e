"""The wheel ships the service's own queries only, and what it leaves out changes nothing the service decides."""

from __future__ import annotations

import ast
import fnmatch
import tomllib
from pathlib import Path

import pytest

from graphrag.stores.cypher import all_queries, cypher_dir
from ingest.labels import TOOLING_LABELS, labels_in

pytestmark = pytest.mark.fast

ROOT = Path(__file__).resolve().parent.parent
TOOLING = ("test_", "bench_")  # the test suite's and the benchmarks' queries


def wheel_excludes() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [pattern.lstrip("/") for pattern in config["tool"]["hatch"]["build"]["targets"]["wheel"]["exclude"]]


def test_the_wheel_leaves_out_exactly_the_test_and_benchmark_queries() -> None:
    files = sorted(path.name for path in cypher_dir().glob("*.cypher"))
    excluded = {name for name in files if any(fnmatch.fnmatch(f"cypher/{name}", p) for p in wheel_excludes())}
    assert excluded == {name for name in files if name.startswith(TOOLING)}
    assert len(files) - len(excluded) > 50  # the production queries stay


def test_the_service_reads_no_test_or_benchmark_query() -> None:
    """Those files are not in the wheel: code under graphrag/ or ingest/ that named one would fail installed."""
    named = []
    for path in [*ROOT.glob("graphrag/**/*.py"), *ROOT.glob("ingest/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and value.startswith(TOOLING) and (cypher_dir() / f"{value}.cypher").is_file():
                named.append(f"{path.relative_to(ROOT)}: {value}")
    assert named == []


def test_labels_of_the_queries_the_wheel_leaves_out_stay_reserved() -> None:
    """An installed service reserves the same labels as a checkout: a kind can never become the test suite's
    marker (the suite would take that graph for its own and wipe it) nor a benchmark's node."""
    tooling = {label for q in all_queries() if q.name.startswith(TOOLING) for label in labels_in(q)}
    production = {label for q in all_queries() if not q.name.startswith(TOOLING) for label in labels_in(q)}
    assert tooling - production == TOOLING_LABELS
