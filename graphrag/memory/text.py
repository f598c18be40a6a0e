"""Text rules shared by search and the archivist: normalising, query words, previews.

A "character" is a Unicode code point (one Python ``str`` element). An astral character such as an
emoji is one code point, so cutting by code points can never split a UTF-16 surrogate pair; the
response budget (DESIGN 5), which counts UTF-16 code units, has its own cutter in ``budget``.
"""

from __future__ import annotations

import re
import unicodedata

PREVIEW_CHARS = 120
WORD = re.compile(r"\w+")
# Han, kana and hangul runs carry no spaces between words: they are matched by overlapping bigrams.
CJK = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]+)")
# Words that say nothing about a topic; they would match almost every record by substring.
STOP_WORDS = frozenset(
    """
    a an and are as at be by do does did for from how i in is it of on or our so the this that to us we what when
    where which who why with you your about
    а в во да же и из или к как ко ли на над не нас наш наша наше наши но о об от по под при про с со так там
    то тот у что это эта эти где когда кто мы вы они он она оно я ну бы был была были есть чем чтобы для
    的 了 是 在 我 我们 你 他 她 它 和 与 或 吗 呢 怎么 如何 什么 哪 这 那
    """.split()
)


def normalise(text: str) -> str:
    """Case- and width-insensitive form used on both sides of a match (``ё`` counts as ``е``)."""
    return unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")


def query_words(query: str) -> list[str]:
    """The distinct content words of a query, in order; stop words and single Latin/Cyrillic letters are dropped.

    A CJK run becomes its overlapping character bigrams (``部署测试`` -> ``部署 署测 测试``), the usual
    dictionary-free way to find Chinese words inside unsegmented text.
    """
    seen: dict[str, None] = {}
    for token in WORD.findall(normalise(query)):
        for piece in CJK.split(token):
            if CJK.fullmatch(piece):
                words = [piece[i : i + 2] for i in range(len(piece) - 1)] or [piece]
            else:
                words = [piece] if len(piece) > 1 else []
            for word in words:
                if word not in STOP_WORDS:
                    seen.setdefault(word, None)
    return list(seen)


def key_text(fact_key: str | None) -> str:
    """A fact key as words (``deploy-staging`` -> ``deploy staging``), so expanded searches can match it."""
    return " ".join(WORD.findall(normalise(fact_key or "").replace("_", " ")))


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The first ``limit`` code points, without a marker: the contract says exactly "the first 120"."""
    return text[:limit]
