"""Memory's own text rules: fact keys as words, record previews, and the full-text queries that find the
records holding a query's words (folding and query words are ``graphrag.names``'s, shared with the pack tools).

A "character" is a Unicode code point (one Python ``str`` element). An astral character such as an
emoji is one code point, so cutting by code points can never split a UTF-16 surrogate pair; the
response budget (docs/mcp.md), which counts UTF-16 code units, has its own cutter in ``budget``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphrag.names import WORD, fold, phrase_text

PREVIEW_CHARS = 120
# Lucene refuses a query of more than 1,024 clauses: a query's words are asked in batches of at most 400
# (two clauses each with the fact key, plus the long-piece and workspace clauses).
WORDS_PER_TEXT_QUERY = 400
# The index (whitespace analyzer) cuts a longer run of non-space characters into pieces of at most 255
# UTF-16 units, so a word that straddles a cut is found by no wildcard. A record holding a run of LONG_RUN or
# more code points (a cut piece has 254 or 255 units) is saved with text_pieces 'long', which every query asks
# for, so such a record is always a candidate and the exact check decides. (A regular expression over the
# index's terms found them too, but read every term of the index on every search.)
LONG_RUN = 127
# ASCII whitespace is a subset of the analyzer's (Java's isWhitespace), so a run is never shorter here than there.
_RUN_BREAK = re.compile(r"[ \t\n\r\f\v]+")
# A hit's Lucene score bounds its score from above: 1 per matching word clause, none for the owner clauses, and
# so much for a long piece (where a cut word may hide) that such a record is never left out by its bound.
LONG_PIECE_BOOST = 1000


def key_text(fact_key: str | None) -> str:
    """A fact key as words (``deploy-staging`` -> ``deploy staging``), so expanded searches can match it."""
    return " ".join(WORD.findall(fold(fact_key or "").replace("_", " ")))


def text_pieces(*texts: str) -> str:
    """``long`` when one of the texts (a record's match and fact texts) holds a run of ``LONG_RUN`` or more
    characters without whitespace, which the index cuts into pieces; else ``short``."""
    return "long" if any(len(run) >= LONG_RUN for text in texts for run in _RUN_BREAK.split(text)) else "short"


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The first ``limit`` code points, without a marker: the contract says exactly "the first 120"."""
    return text[:limit]


def text_queries(project: str, workspace: str, words: Sequence[str], with_fact_key: bool) -> list[dict[str, str]]:
    """Lucene queries of the index ``memory_record_text``, one per batch of words: ``any`` finds every record
    of the workspace in which a word occurs as a substring of the normalised text (and of the fact key's words
    when ``with_fact_key``), each word asked as ``*word*`` in the whitespace-separated pieces of that text;
    ``all`` finds those in which every word of the batch occurs.

    Hits are candidates, a superset: the workspace is matched as a phrase and long pieces always hit, so the
    query that reads them keeps only the workspace's records and scores them exactly. A hit's Lucene score
    bounds its score from above. A word of ``LONG_RUN`` or more characters is not asked at all: only a record
    with long pieces can hold it, and those always hit (Lucene refuses ``*aaa…*`` of some hundreds of
    characters as too complex). Words are ``\\w+`` runs, which hold no Lucene syntax; project and workspace
    names are quoted with their quotes escaped.
    """
    fields = ("match_text", "fact_text") if with_fact_key else ("match_text",)
    owner = f'+project:"{phrase_text(project)}"^0 +workspace:"{phrase_text(workspace)}"^0'
    long_pieces = f"text_pieces:long^{LONG_PIECE_BOOST}"

    def clauses(word: str) -> str:
        return " ".join(f"{field}:*{word}*" for field in fields)

    asked = [word for word in words if len(word) < LONG_RUN]
    if words and not asked:
        return [{"any": f"{owner} +{long_pieces}", "all": f"{owner} +{long_pieces}"}]
    return [
        {
            "any": f"{owner} +({' '.join(map(clauses, batch))} {long_pieces})",
            "all": f"{owner} +(({' '.join(f'+({clauses(word)})' for word in batch)}) {long_pieces})",
        }
        for batch in (asked[i : i + WORDS_PER_TEXT_QUERY] for i in range(0, len(asked), WORDS_PER_TEXT_QUERY))
    ]
