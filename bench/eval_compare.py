"""Evaluator benchmark: validate and compare a generated experiment of N test queries.

    python -m bench.eval_compare --queries 1000

Target: under 10 s on a 2-core machine for 1,000 queries (validation included).
"""

from __future__ import annotations

import argparse
import json
import time

from bench.eval_factory import experiment
from graphrag.evaluation.loading import parse_input
from graphrag.evaluation.report import compare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=1000)
    args = parser.parse_args()
    raw = json.dumps(experiment(n_test=args.queries, n_dev=60, seed=11))
    started = time.perf_counter()
    parsed = parse_input(raw)
    validated = time.perf_counter()
    outcome, _ = compare(parsed)
    done = time.perf_counter()
    print(f"input: {args.queries} test queries, {len(raw) / 1e6:.1f} MB of JSON")
    print(f"validation: {validated - started:.2f}s  compare (10,000 bootstrap resamples): {done - validated:.2f}s")
    print(f"total: {done - started:.2f}s (target < 10 s)  outcome: {outcome}")


if __name__ == "__main__":
    main()
