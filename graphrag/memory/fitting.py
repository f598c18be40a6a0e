"""DESIGN 5 for memory records: contents and link previews share one cap, found by the server's bisection.

The server's ``fit_items`` clips the items' own fields; a record's previews sit one level down, in
``graph_relations``, and DESIGN 5 counts link previews among the text fields that may be shortened.
A record whose content or a preview was shortened says ``content_truncated: true``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from graphrag.memory.model import MemoryRecord
from graphrag.server.budget import FIELD_UNITS, clip, largest_fitting

M = TypeVar("M", bound=BaseModel)


def fit_records(response: M, records: Sequence[MemoryRecord], budget: int, what: str) -> M:
    """``response`` (which holds ``records``) with their texts capped so that it fits ``budget`` bytes."""
    originals = [(r.content, [link.preview for link in r.graph_relations]) for r in records]

    def capped(units: int) -> M:
        for record, (content, previews) in zip(records, originals, strict=True):
            record.content = clip(content, units)
            shortened = record.content != content
            for link, preview in zip(record.graph_relations, previews, strict=True):
                link.preview = clip(preview, units)
                shortened |= link.preview != preview
            record.content_truncated = shortened
        return response

    return largest_fitting(capped, 0, FIELD_UNITS, budget, what)
