"""The response budget (docs/mcp.md), shared by every tool so all of them keep their structured output.

Sizes count what the client receives: a structured result travels twice, as ``structuredContent``
and as the JSON text block MCP clients without structured output read, so both are counted.
Text fields of result items are capped in UTF-16 code units (what clients and LLM tokenisers see
as string length) and never split a surrogate pair. A list that does not fit even with empty texts loses
its last items, and says how many (``fit_list``); anything else that does not fit is an error.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from pydantic import BaseModel

from graphrag import fitting
from graphrag.errors import ResponseTooLarge
from graphrag.fitting import ENVELOPE_BYTES
from graphrag.retrieval.models import Attribute, Clippable

FIELD_UNITS = 2000
MARKER = "…[truncated]"

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def clip(text: str, units: int) -> str:
    """``text`` if it has at most ``units`` UTF-16 code units, else its longest such prefix and the marker."""
    if len(text) <= units // 2 or utf16_units(text) <= units:
        return text
    head = text.encode("utf-16-le")[: units * 2]
    if head and 0xD8 <= head[-1] <= 0xDB:  # a high surrogate without its partner
        head = head[:-2]
    return head.decode("utf-16-le") + MARKER


def clip_value(value: Attribute, units: int) -> Attribute:
    """A frontmatter value as it is when its text (a list's items joined by ", ") has at most ``units`` UTF-16
    units, else that text clipped: one long value cannot crowd out the answer it is part of."""
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return value if utf16_units(text) <= units else clip(text, units)


def wire_bytes(response: BaseModel) -> int:
    """UTF-8 bytes of the tool result on the wire: the structured content plus the same JSON as a text block."""
    text = response.model_dump_json()
    return len(text.encode()) + len(json.dumps(text, ensure_ascii=False).encode()) + ENVELOPE_BYTES


def largest_fitting(
    build: Callable[[int], T], low: int, high: int, budget: int, what: str, size: Callable[[T], int] | None = None
) -> T:
    """``graphrag.fitting.largest_fitting`` measuring tool results (``wire_bytes``) unless ``size`` is given."""
    measure = size or cast(Callable[[T], int], wire_bytes)
    return fitting.largest_fitting(build, low, high, budget, what, measure)


_Measured = list[tuple[Clippable, list[tuple[BaseModel, str, str, int]]]]


class Texts:
    """The shortenable texts of result items, each measured once, then set to one common cap on demand."""

    def __init__(self, measured: _Measured) -> None:
        self._items = measured

    @classmethod
    def of(cls, items: Sequence[Clippable]) -> Texts:
        return cls(
            [(item, [(owner, name, text, utf16_units(text)) for owner, name, text in _texts(item)]) for item in items]
        )

    @property
    def longest(self) -> int:
        return max((units for _, texts in self._items for *_, units in texts), default=0)

    def first(self, count: int) -> Texts:
        """The texts of the first ``count`` items only (their originals, whatever cap was set since)."""
        return Texts(self._items[:count])

    def cap(self, units: int) -> None:
        """Every text at most ``units`` UTF-16 units (plus the marker); an item says whether one was cut."""
        for item, texts in self._items:
            for owner, name, text, length in texts:
                setattr(owner, name, text if length <= units else clip(text, units))
            item.content_truncated = any(length > units for *_, length in texts)

    def fit(self, response: M, budget: int, what: str) -> M:
        """``response`` with the largest common cap (at most 2,000 units) at which it fits ``budget``.

        The cap is searched only up to the longest text: a larger one gives the same answer, so a response
        that fits uncapped is serialised once.
        """

        def capped(units: int) -> M:
            self.cap(units)
            return response

        return largest_fitting(capped, 0, min(FIELD_UNITS, self.longest), budget, what)


def _texts(item: Clippable) -> list[tuple[BaseModel, str, str]]:
    return [(owner, name, text) for owner, name in item.clip_targets() if isinstance(text := getattr(owner, name), str)]


def fit_items(response: M, items: Sequence[Clippable], budget: int, what: str) -> M:
    """Cap the items' text fields at 2,000 units, then shorten the longest ones evenly until the response fits.

    Items, their order and their metadata stay; an item whose text was shortened says ``content_truncated``.
    """
    return Texts.of(items).fit(response, budget, what)


def fit_list(response: M, field: str, budget: int, what: str) -> M:
    """Like ``fit_items`` for the items in ``response.<field>``; when even empty texts leave the answer too
    large, the last items are left out and counted in ``response.omitted`` (never silently), and the
    texts of those kept are shortened no more than they need."""
    items: list[Clippable] = getattr(response, field)
    texts = Texts.of(items)
    try:
        return texts.fit(response, budget, what)
    except ResponseTooLarge:
        if len(items) < 2:
            raise
    texts.cap(0)

    def first(count: int) -> M:
        return response.model_copy(update={field: items[:count], "omitted": len(items) - count})

    kept = largest_fitting(first, 1, len(items) - 1, budget, what)
    return texts.first(len(getattr(kept, field))).fit(kept, budget, what)
