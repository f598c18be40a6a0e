"""Hand-computed cases for every metric of the evaluation page."""

from __future__ import annotations

import pytest

from graphrag.evaluation.contract import Claim, Hit, Span
from graphrag.evaluation.metrics import (
    answer_scores,
    evidence_coverage,
    evidence_precision,
    evidence_recall,
    score_query,
    select_context,
)

pytestmark = pytest.mark.fast


def hit(chunk: str, start: int, end: int, source: str = "s") -> Hit:
    return Hit(chunk_id=chunk, source_id=source, start=start, end=end)


def span(start: int, end: int, source: str = "s") -> Span:
    return Span(source_id=source, start=start, end=end)


def claim(*citations: str, supported: bool = True) -> Claim:
    return Claim(text="c", citations=list(citations), supported=supported)


def test_context_is_the_prefix_that_fits_and_first_oversized_hit_ends_it() -> None:
    hits = [hit("a", 0, 40), hit("b", 40, 80), hit("c", 0, 30), hit("d", 100, 110)]
    # 40 + 40 = 80 fits a budget of 100; "c" (30) would reach 110, so the prefix ends even though "d" fits.
    assert [h.chunk_id for h in select_context(hits, 100)] == ["a", "b"]
    assert [h.chunk_id for h in select_context(hits, 110)] == ["a", "b", "c"]
    assert select_context(hits, 39) == []


def test_overlapping_chunks_each_consume_budget() -> None:
    hits = [hit("a", 0, 50), hit("b", 25, 75), hit("c", 0, 50, source="t")]
    # a and b overlap by 25 units but serialisation repeats them: 50 + 50 = 100 units.
    assert [h.chunk_id for h in select_context(hits, 120)] == ["a", "b"]
    assert len(select_context(hits, 150)) == 3


def test_recall_gives_no_credit_for_partial_coverage() -> None:
    evidence = [span(10, 20), span(30, 40)]
    selected = [hit("a", 0, 25), hit("b", 35, 60)]
    assert evidence_recall(evidence, selected) == 0.5  # second span only half covered


def test_recall_accepts_adjacent_chunks_jointly_covering_a_span() -> None:
    evidence = [span(10, 30)]
    assert evidence_recall(evidence, [hit("a", 0, 20), hit("b", 20, 40)]) == 1.0
    assert evidence_recall(evidence, [hit("a", 0, 20), hit("b", 21, 40)]) == 0.0


def test_recall_and_coverage_look_at_the_first_ten_selected_hits_only() -> None:
    filler = [hit(f"f{i}", 100 + i, 101 + i) for i in range(10)]
    evidence = [span(0, 10)]
    selected = [*filler, hit("late", 0, 10)]
    assert evidence_recall(evidence, selected) == 0.0
    assert evidence_coverage(evidence, selected) == 0.0
    assert evidence_recall(evidence, selected[1:]) == 1.0


def test_coverage_counts_overlaps_once_and_averages_spans() -> None:
    evidence = [span(0, 10), span(20, 40)]
    selected = [hit("a", 0, 6), hit("b", 4, 8), hit("c", 30, 50)]
    # span 1: [0, 8) of 10 units = 0.8; span 2: [30, 40) of 20 units = 0.5
    assert evidence_coverage(evidence, selected) == pytest.approx((0.8 + 0.5) / 2)


def test_spans_in_other_sources_do_not_cover() -> None:
    evidence = [span(0, 10, source="s")]
    selected = [hit("a", 0, 10, source="t")]
    assert evidence_recall(evidence, selected) == 0.0
    assert evidence_coverage(evidence, selected) == 0.0
    assert evidence_precision(evidence, selected) == 0.0


def test_precision_divides_by_five_even_with_fewer_hits() -> None:
    evidence = [span(10, 20)]
    assert evidence_precision(evidence, [hit("a", 0, 30)]) == 0.2
    assert evidence_precision(evidence, []) == 0.0


def test_precision_needs_a_complete_span_inside_one_chunk() -> None:
    evidence = [span(10, 20), span(50, 55)]
    hits = [hit("a", 0, 15), hit("b", 15, 30), hit("c", 0, 60), hit("d", 50, 55), hit("e", 9, 21), hit("f", 10, 20)]
    # a and b split the span; c, d, e contain one; f is rank six.
    assert evidence_precision(evidence, hits) == pytest.approx(3 / 5)


def test_precision_uses_the_raw_ranking_not_the_packed_context() -> None:
    evidence = [span(0, 10)]
    hits = [hit("big", 0, 1000), hit("small", 0, 10)]
    scores = score_query(evidence, hits, [], budget=100)
    assert scores.precision == pytest.approx(2 / 5)
    assert scores.recall == 0.0  # the oversized first hit leaves an empty context


def test_astral_offsets_are_utf16_units() -> None:
    # "a😀b": the emoji occupies units [1, 3).
    evidence = [span(1, 3)]
    assert evidence_recall(evidence, [hit("a", 0, 3)]) == 1.0
    assert evidence_coverage(evidence, [hit("a", 2, 4)]) == 0.5
    assert [h.chunk_id for h in select_context([hit("a", 0, 3), hit("b", 3, 4)], 3)] == ["a"]


def test_answer_scores_use_supported_claims_and_in_context_citations_only() -> None:
    evidence = [span(0, 10), span(20, 30)]
    selected = [hit("a", 0, 5), hit("b", 5, 10), hit("c", 20, 30)]
    claims = [claim("a"), claim("b"), claim("c", supported=False), claim("outside")]
    supported, cited = answer_scores(evidence, claims, selected)
    assert supported == 0.75
    # a and b jointly cover span 1; c is cited by an unsupported claim; "outside" is not in the context.
    assert cited == 0.5


def test_citations_beyond_the_top_ten_do_not_count() -> None:
    evidence = [span(0, 10)]
    selected = [*(hit(f"f{i}", 100 + i, 101 + i) for i in range(10)), hit("late", 0, 10)]
    assert answer_scores(evidence, [claim("late")], selected) == (1.0, 0.0)


def test_an_answer_without_claims_scores_zero() -> None:
    assert answer_scores([span(0, 10)], [], [hit("a", 0, 10)]) == (0.0, 0.0)
