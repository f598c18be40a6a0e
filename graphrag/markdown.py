"""What counts as a markdown heading, one rule for the ingester's passages and live documents' headings.

A ``#`` heading (ATX, up to three spaces of indent) is a heading only outside fenced code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def unfenced(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(index, line) of every line outside fenced code (a closing fence line included, an opening one not)."""
    fenced = False
    for i, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
        if not fenced:
            yield i, line


def headings(text: str) -> list[str]:
    """The markdown heading lines of ``text``, as they are written, in order."""
    return [line for _, line in unfenced(text.split("\n")) if HEADING.match(line)]
