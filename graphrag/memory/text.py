"""Memory's own text rules: fact keys as words and record previews (folding and query words are
``graphrag.names``'s, shared with the pack tools).

A "character" is a Unicode code point (one Python ``str`` element). An astral character such as an
emoji is one code point, so cutting by code points can never split a UTF-16 surrogate pair; the
response budget (docs/mcp.md), which counts UTF-16 code units, has its own cutter in ``budget``.
"""

from __future__ import annotations

from graphrag.names import WORD, fold

PREVIEW_CHARS = 120


def key_text(fact_key: str | None) -> str:
    """A fact key as words (``deploy-staging`` -> ``deploy staging``), so expanded searches can match it."""
    return " ".join(WORD.findall(fold(fact_key or "").replace("_", " ")))


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The first ``limit`` code points, without a marker: the contract says exactly "the first 120"."""
    return text[:limit]
