"""Fusion of ranked lists, on plain candidate lists: the properties a ranking relies on, whatever the tuning."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphrag.retrieval.candidates import Candidate
from graphrag.retrieval.fusion import Ranked, agreement, fuse, reciprocal_rank, stands_apart

pytestmark = pytest.mark.fast

K = 60


def ranked(*ids: str, weight: float = 1.0, scores: list[float] | None = None, scaled: bool = False) -> Ranked:
    values = scores or [1.0 / (i + 1) for i in range(len(ids))]
    return Ranked([Candidate(i, s) for i, s in zip(ids, values, strict=True)], weight, scaled)


def order(fused: list[tuple[str, float]]) -> list[str]:
    return [entity for entity, _ in fused]


# Lists of distinct ids, best first, with positive cosine-like scores in decreasing order.
LISTS = st.lists(
    st.lists(st.sampled_from("abcdefghij"), unique=True, max_size=8).map(lambda ids: ranked(*ids)),
    max_size=4,
)


def test_one_list_keeps_its_order() -> None:
    assert order(reciprocal_rank([ranked("c", "a", "b")], K)) == ["c", "a", "b"]


def test_an_entity_in_two_lists_beats_one_in_a_single_list_at_the_same_rank() -> None:
    fused = reciprocal_rank([ranked("a", "b"), ranked("b", "c")], K)
    assert order(fused)[0] == "b"


def test_reciprocal_rank_scores_are_the_sum_of_weight_over_k_plus_rank() -> None:
    fused = dict(reciprocal_rank([ranked("a", "b", weight=2.0), ranked("b")], K))
    assert fused == pytest.approx({"a": 2.0 / (K + 1), "b": 2.0 / (K + 2) + 1.0 / (K + 1)})


def test_rank_fusion_ignores_the_scale_of_scores() -> None:
    """Cosine in 0..1 and BM25 in the tens fuse alike: only ranks count."""
    small = reciprocal_rank([ranked("a", "b", scores=[0.9, 0.8]), ranked("b", "c", scores=[0.5, 0.4])], K)
    large = reciprocal_rank([ranked("a", "b", scores=[90.0, 1.0]), ranked("b", "c", scores=[5e3, 1e-3])], K)
    assert small == large


def test_a_list_of_weight_zero_or_nothing_changes_nothing() -> None:
    base = reciprocal_rank([ranked("a", "b")], K)
    assert reciprocal_rank([ranked("a", "b"), ranked("c", "b", weight=0.0), ranked()], K) == base


def test_a_heavier_list_decides_between_two_first_places() -> None:
    assert order(reciprocal_rank([ranked("a", weight=1.0), ranked("b", weight=2.0)], K))[0] == "b"
    assert order(reciprocal_rank([ranked("a", weight=2.0), ranked("b", weight=1.0)], K))[0] == "a"


def test_ties_break_by_id_for_stable_answers() -> None:
    assert order(reciprocal_rank([ranked("b"), ranked("a")], K)) == ["a", "b"]


def test_score_fusion_is_relative_to_each_lists_best() -> None:
    """A list whose scores stand apart decides; a flat list gives all its entities nearly the same share."""
    fused = fuse([ranked("a", "b", scores=[10.0, 1.0]), ranked("b", "a", scores=[5.0, 4.9])], "score", K)
    assert dict(fused) == pytest.approx({"a": 1.0 + 4.9 / 5.0, "b": 0.1 + 1.0})
    assert order(fused) == ["a", "b"]


def test_a_scaled_list_counts_each_candidates_own_score() -> None:
    """Names linked with some confidence: a sure name counts fully, an unsure one little."""
    fused = dict(fuse([ranked("sure", "unsure", scores=[1.0, 0.1], scaled=True)], "rank", K))
    assert fused == pytest.approx({"sure": 1.0 / (K + 1), "unsure": 0.1 / (K + 2)})
    nothing = fuse([ranked("zero", scores=[0.0], scaled=True)], "rank", K)
    assert nothing == [("zero", 0.0)]


@given(LISTS)
def test_fused_scores_are_best_first_and_hold_every_entity_once(lists: list[Ranked]) -> None:
    for method in ("rank", "score"):
        fused = fuse(lists, method, K)
        ids = order(fused)
        assert len(ids) == len(set(ids))
        assert set(ids) == {c.id for r in lists for c in r.candidates}
        assert fused == sorted(fused, key=lambda item: (-item[1], item[0]))


@given(LISTS)
def test_the_order_of_the_lists_changes_nothing(lists: list[Ranked]) -> None:
    forwards = dict(fuse(lists, "rank", K))
    backwards = dict(fuse(lists[::-1], "rank", K))
    assert forwards.keys() == backwards.keys()
    assert all(forwards[i] == pytest.approx(backwards[i]) for i in forwards)


@given(LISTS, st.integers(min_value=1, max_value=8))
def test_moving_an_entity_up_in_one_list_never_lowers_its_fused_score(lists: list[Ranked], position: int) -> None:
    """Monotonicity: a retriever that likes an entity more can only help it."""
    if not lists or len(lists[0].candidates) <= position:
        return
    first = list(lists[0].candidates)
    moved = first[position]
    promoted = [moved, *first[:position], *first[position + 1 :]]
    before = dict(fuse(lists, "rank", K))[moved.id]
    after = dict(fuse([Ranked(promoted, lists[0].weight), *lists[1:]], "rank", K))[moved.id]
    assert after >= before


def test_agreement_is_each_lists_share_of_the_weight_over_the_rank_it_gives() -> None:
    text = Ranked([Candidate("a", 9.0), Candidate("b", 8.0)], weight=0.4)
    vector = Ranked([Candidate("b", 0.5), Candidate("a", 0.4)], weight=0.6)
    empty = Ranked([], weight=5.0)

    assert agreement([text, vector, empty], "a") == pytest.approx(0.4 + 0.6 / 2)
    assert agreement([text, vector, empty], "b") == pytest.approx(0.4 / 2 + 0.6)
    assert agreement([text, vector], "c") == 0.0
    assert agreement([text, Ranked(vector.candidates, weight=0.0)], "a") == 1.0
    assert agreement([empty], "a") == 0.0


def test_an_entity_both_lists_put_second_is_as_sure_as_a_sure_name_needs() -> None:
    """Words put one start first and meaning another; both put the asked one second (the asyncio PEP in
    "What did the asyncio PEP replace?" over several packs): half as sure, enough to walk from."""
    words = Ranked([Candidate("other", 3.0), Candidate("asked", 2.0)], weight=0.8)
    meaning = Ranked([Candidate("third", 0.5), Candidate("asked", 0.4)], weight=0.25)
    assert agreement([words, meaning], "asked") == pytest.approx(0.5)


def test_by_standard_score_a_flat_list_does_not_reorder_one_whose_first_hit_stands_apart() -> None:
    """Full text finds the quoted phrase in ``answer`` (far ahead); meaning is flat and puts ``near`` first.
    By rank, ``near`` (second in text, first in meaning) wins; by standard score, ``answer`` does."""
    text = Ranked([Candidate("answer", 170.0), Candidate("near", 14.0), Candidate("other", 9.0)], weight=0.5)
    meaning = Ranked([Candidate("near", 0.25), Candidate("x", 0.24), Candidate("answer", 0.2)], weight=0.5)

    assert fuse([text, meaning], "rank", 10)[0][0] == "near"
    assert fuse([text, meaning], "standard", 10, depth=30)[0][0] == "answer"


def test_by_standard_score_the_places_a_list_left_empty_count_zero() -> None:
    """One hit in a pool of 30 stands far above the others' zeros; read alone, one score stands nowhere."""
    alone = Ranked([Candidate("a", 2.0)], weight=1.0)

    assert fuse([alone], "standard", 10, depth=30)[0][1] == pytest.approx((2.0 - 2.0 / 30) / (2.0 * 29**0.5 / 30))
    assert fuse([alone], "standard", 10, depth=1) == [("a", 0.0)]


@pytest.mark.parametrize(
    ("scores", "apart"),
    [
        ([95.0, 53.8, 53.7], True),  # one rare word more than the rest matched
        ([60.0, 53.8], False),
        ([95.0], False),  # one hit has no second to stand apart from
        ([0.0, 0.0], False),
    ],
)
def test_a_first_hit_stands_apart_when_it_scores_the_ratio_times_the_second(scores: list[float], apart: bool) -> None:
    candidates = [Candidate(f"e{n}", score) for n, score in enumerate(scores)]

    assert stands_apart(candidates, 1.5) is apart
    assert stands_apart(candidates, 0) is False  # 0 turns the reading off
