"""Which queries enter the comparison: held-out test questions, each counted once.

Development questions tune and calibrate, so a test question whose text repeats a
development question (after case and whitespace folding) would leak; it is excluded, as is
any repeat of an earlier test question. String matching cannot find paraphrases: topic
deduplication stays a human duty, and the report says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphrag.evaluation.calibration import normalise_text
from graphrag.evaluation.contract import EvaluationInput, Query


@dataclass(frozen=True)
class Exclusion:
    query_id: str
    reason: str


def comparison_set(inp: EvaluationInput) -> tuple[list[Query], list[Exclusion]]:
    """Test queries sorted by id (the bootstrap's canonical order) and what was left out."""
    development = {
        normalise_text(q.text): q.query_id
        for q in sorted(inp.queries, key=lambda q: q.query_id)
        if q.split == "development"
    }
    kept: dict[str, Query] = {}
    excluded: list[Exclusion] = []
    for query in sorted(inp.queries, key=lambda q: q.query_id):
        if query.split != "test":
            continue
        key = normalise_text(query.text)
        if key in development:
            excluded.append(Exclusion(query.query_id, f"repeats development query '{development[key]}'"))
        elif key in kept:
            excluded.append(Exclusion(query.query_id, f"repeats test query '{kept[key].query_id}'"))
        else:
            kept[key] = query
    return sorted(kept.values(), key=lambda q: q.query_id), excluded
