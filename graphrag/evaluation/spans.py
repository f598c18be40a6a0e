"""UTF-16 offsets and half-open interval arithmetic.

The contract counts characters the way JavaScript does (UTF-16 code units), because the
recorded runs and labels were produced by tools that slice strings that way. Python counts
code points, so every offset check and every slice goes through this module.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Sequence

Interval = tuple[int, int]


def utf16_units(text: str) -> array[int]:
    """The UTF-16 code units of ``text`` (lone surrogates kept, so offsets stay honest)."""
    units = array("H", text.encode("utf-16-le", "surrogatepass"))
    if sys.byteorder == "big":  # pragma: no cover - the array was filled little-endian
        units.byteswap()
    return units


def utf16_length(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (an astral character counts two)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def is_low_surrogate(unit: int) -> bool:
    return 0xDC00 <= unit <= 0xDFFF


def is_high_surrogate(unit: int) -> bool:
    return 0xD800 <= unit <= 0xDBFF


def splits_surrogate_pair(units: Sequence[int], offset: int) -> bool:
    """True when ``offset`` falls between the two halves of a surrogate pair."""
    if offset <= 0 or offset >= len(units):
        return False
    return is_high_surrogate(units[offset - 1]) and is_low_surrogate(units[offset])


def utf16_slice(text: str, start: int, end: int) -> str:
    """``text.slice(start, end)`` with JavaScript semantics, for offsets already validated."""
    data = text.encode("utf-16-le", "surrogatepass")
    return data[2 * start : 2 * end].decode("utf-16-le", "surrogatepass")


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Union of half-open intervals; touching intervals merge, so adjacent chunks join."""
    merged: list[list[int]] = []
    for start, end in sorted(intervals):
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def covered_length(span: Interval, union: Sequence[Interval]) -> int:
    """How many code units of ``span`` lie inside an already merged ``union``."""
    start, end = span
    total = 0
    for left, right in union:
        if right <= start:
            continue
        if left >= end:
            break
        total += min(end, right) - max(start, left)
    return total


def fully_covered(span: Interval, union: Sequence[Interval]) -> bool:
    """Whether one merged interval contains the whole span (a merged union has no seams)."""
    start, end = span
    return any(left <= start and end <= right for left, right in union)


def contains(outer: Interval, inner: Interval) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]
