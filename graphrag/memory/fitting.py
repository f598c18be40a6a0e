"""DESIGN 5 for memory records: contents and link previews share one cap, found by the server's bisection.

The server's ``fit_items`` clips the items' own fields; a record's previews sit one level down, in
``graph_relations``, and DESIGN 5 counts link previews among the text fields that may be shortened.
A record whose content or a preview was shortened says ``content_truncated: true``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from pydantic import BaseModel

from graphrag.memory.model import MemoryRecord
from graphrag.server.budget import FIELD_UNITS, clip, largest_fitting, utf16_units

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class _Text:
    """An original text and its length in UTF-16 units, measured once for all the caps tried."""

    text: str
    units: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", utf16_units(self.text))

    def capped(self, units: int) -> str:
        return self.text if self.units <= units else clip(self.text, units)


def fit_records(response: M, records: Sequence[MemoryRecord], budget: int, what: str) -> M:
    """``response`` (which holds ``records``) with their texts capped so that it fits ``budget`` bytes.

    The cap is searched only up to the longest text: a larger cap gives the same answer, so a response
    that fits uncapped is serialised once, and one that does not takes fewer bisection steps.
    """
    contents = [_Text(r.content) for r in records]
    previews = [[_Text(link.preview) for link in r.graph_relations] for r in records]
    longest = max([t.units for t in contents] + [t.units for links in previews for t in links], default=0)

    def capped(units: int) -> M:
        for record, content, links in zip(records, contents, previews, strict=True):
            record.content = content.capped(units)
            shortened = content.units > units
            for link, preview in zip(record.graph_relations, links, strict=True):
                link.preview = preview.capped(units)
                shortened |= preview.units > units
            record.content_truncated = shortened
        return response

    return largest_fitting(capped, 0, min(FIELD_UNITS, longest), budget, what)
