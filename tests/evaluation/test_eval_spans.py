"""UTF-16 helpers: JavaScript-compatible lengths, slices and surrogate-pair boundaries."""

import pytest

from graphrag.evaluation.spans import (
    covered_length,
    fully_covered,
    merge,
    splits_surrogate_pair,
    utf16_length,
    utf16_slice,
    utf16_units,
)

pytestmark = pytest.mark.fast

ASTRAL = "a\U0001f600b"  # 'a', GRINNING FACE (two UTF-16 units), 'b'


def test_astral_character_counts_two_units() -> None:
    assert len(ASTRAL) == 3
    assert utf16_length(ASTRAL) == 4
    assert utf16_length("") == 0
    assert utf16_length("\u00e9") == 1  # BMP characters count one


def test_surrogate_boundaries() -> None:
    units = utf16_units(ASTRAL)
    assert [splits_surrogate_pair(units, offset) for offset in range(5)] == [False, False, True, False, False]


def test_slice_matches_javascript() -> None:
    assert utf16_slice(ASTRAL, 1, 3) == "\U0001f600"
    assert utf16_slice(ASTRAL, 3, 4) == "b"
    assert utf16_slice("x\U0001f600\U0001f600y", 3, 6) == "\U0001f600y"


def test_merge_joins_overlapping_and_touching_intervals() -> None:
    assert merge([(5, 10), (0, 5), (20, 30), (8, 12), (30, 31)]) == [(0, 12), (20, 31)]
    assert merge([]) == []


def test_covered_length_counts_overlaps_once() -> None:
    union = merge([(0, 10), (5, 15), (20, 25)])
    assert covered_length((8, 22), union) == 7 + 2
    assert covered_length((15, 20), union) == 0


def test_fully_covered_needs_one_seamless_interval() -> None:
    assert fully_covered((3, 12), merge([(0, 6), (6, 12)]))
    assert not fully_covered((3, 12), merge([(0, 6), (7, 12)]))
