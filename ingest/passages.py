"""Cut an entity's body into passages an agent can search and cite (docs/mcp.md, pack_context).

A passage is a section of the body (from one heading to the next, markdown ``#`` or reStructuredText
underlined titles), or a window of paragraphs when a section is long. Its text is exactly the file's
lines ``first..last`` (1-based, as an editor numbers them), so a citation points at what it quotes.
Headings inside fenced code are text, not sections.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from graphrag.markdown import FENCE, HEADING, unfenced

MAX_CHARS = 1500  # a window: long enough for a paragraph or two, short enough to read in a context
_REST_UNDERLINE = re.compile(r"^([=\-~^\"'`*+#:.])\1{2,}\s*$")


@dataclass(frozen=True, slots=True)
class Passage:
    entity: str
    number: int
    heading: str
    first: int  # file line numbers, inclusive
    last: int
    text: str


def cut(entity_id: str, body: str, body_line: int) -> list[Passage]:
    """The passages of ``body``, whose first line is line ``body_line`` of its file."""
    lines = body.split("\n")
    return [
        Passage(
            entity=entity_id,
            number=number,
            heading=heading,
            first=body_line + first,
            last=body_line + last,
            text="\n".join(lines[first : last + 1]),
        )
        for number, (heading, first, last) in enumerate(_spans(lines), start=1)
    ]


def count(body: str) -> int:
    """How many passages ``cut`` makes of a body, without their text (ingest bounds it per file)."""
    return len(_spans(body.split("\n")))


def _spans(lines: list[str]) -> list[tuple[str, int, int]]:
    """(heading, first line, last line) of each passage, 0-based in the body."""
    return [
        (heading, first, last)
        for heading, start, end in _sections(lines)
        for first, last in _windows(lines, start, end)
    ]


def _sections(lines: list[str]) -> list[tuple[str, int, int]]:
    """(heading, first line, line after the last) of each section; text before the first heading is one too."""
    starts: list[tuple[int, str]] = [(0, "")]
    for i, line in unfenced(lines):
        if HEADING.match(line):
            starts.append((i, line.strip().lstrip("#").strip()))
        elif i + 1 < len(lines) and _is_underlined(line, lines[i + 1]):
            overline = i > 0 and lines[i - 1].strip() == lines[i + 1].strip()
            starts.append((i - 1 if overline else i, line.strip()))
    bounds = [*sorted(set(starts)), (len(lines), "")]
    return [(heading, start, end) for (start, heading), (end, _) in itertools.pairwise(bounds)]


def _is_underlined(title: str, under: str) -> bool:
    text = title.strip()
    return (
        bool(text)
        and not _REST_UNDERLINE.match(title)
        and bool(_REST_UNDERLINE.match(under))
        and not FENCE.match(under)
    )


def _windows(lines: list[str], start: int, end: int) -> list[tuple[int, int]]:
    """Line ranges of at most about ``MAX_CHARS`` each, cut at blank lines where the section allows,
    without blank lines at either end; a single line longer than that stays whole."""
    out: list[tuple[int, int]] = []
    first: int | None = None
    size = 0
    for i in range(start, end):
        blank = not lines[i].strip()
        if first is None:
            if blank:
                continue
            first, size = i, 0
        size += len(lines[i]) + 1
        next_is_break = i + 1 >= end or not lines[i + 1].strip()
        if size >= MAX_CHARS and (next_is_break or size >= 2 * MAX_CHARS):
            out.append(_trimmed(lines, first, i))
            first = None
    if first is not None:
        out.append(_trimmed(lines, first, end - 1))
    return out


def _trimmed(lines: list[str], first: int, last: int) -> tuple[int, int]:
    while last > first and not lines[last].strip():
        last -= 1
    return first, last
