"""A word in its inflections, for reading relation words and kind words in a question: English by suffixes
(``depends`` ~ ``dependencies``, ``referred`` ~ ``refers``), Russian by Snowball's stemmer (``входит`` ~
``входят``), which no suffix list of our own would get right.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]

from graphrag.names import ARTICLES, WORD, fold, query_words, quoted_passages, script_of

# English inflections and derivations a relation word takes (depends, dependencies, required, requirements).
_SUFFIXES = (
    "s", "es", "d", "ed", "ing", "e", "er", "ers", "r", "rs", "or", "ors", "ion", "ions", "ies", "y",
    "ent", "ents", "ency", "encies", "ence", "ences", "ment", "ments", "ance", "ances", "ation", "ations",
)  # fmt: skip
_DOUBLING = ("ed", "ing", "er", "ers")
_VOWELS = frozenset("aeiouy")
_NOUN_OF_VERB = ("ion", "ions")  # extension ~ extend, provision ~ provide: the verb's d became an s


# The words a relation name's word goes by in questions, where English has several for one thing: a pack's
# part_of is asked for as components and pieces too.
_SYNONYMS = {"part": ("component", "piece", "constituent", "element")}


def same(word: str, token: str) -> bool:
    """One word in two inflections: ``depend`` ~ ``depends`` ~ ``dependencies``, ``use`` ~ ``using``; but
    not ``builtin`` ~ ``built``. Two words are one when some suffix-stripped form of each coincides, or when
    one is a synonym of the other (``components`` ~ ``part``)."""
    forms = stems(word)
    return word == token or any(forms & stems(t) for t in (token, *_SYNONYMS.get(token, ())))


# Russian inflects by endings that the English suffixes below do not know (входит ~ входят, общая ~ общей):
# Snowball's stemmer reads them. It keeps state while it works, so one call at a time.
_RUSSIAN = snowballstemmer.stemmer("russian")
_RUSSIAN_LOCK = threading.Lock()


@lru_cache(maxsize=1 << 16)  # each question word meets every relation name: its forms are worked out once
def stems(word: str) -> frozenset[str]:
    found = {word}
    if script_of(word) == "cyrillic":
        with _RUSSIAN_LOCK:
            found.add(_RUSSIAN.stemWord(word))
        return frozenset(found)
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            stem = word[: -len(suffix)]
            found.add(stem)
            if suffix in _NOUN_OF_VERB and stem.endswith("s") and len(stem) >= 5:
                found.add(stem[:-1] + "d")
            if suffix in _DOUBLING and len(stem) >= 4 and stem[-1] == stem[-2] and stem[-1] not in _VOWELS:
                found.add(stem[:-1])  # referred ~ refer, stopped ~ stop: the consonant doubled before the ending
    return frozenset(found)


def named_kinds(question: str, kinds: Iterable[str], anchor: tuple[int, int]) -> list[str]:
    """The entity kinds the question names outside the entity and its quotes (``Which fields use X?``:
    ``field``), in the question's order: what the answer is."""
    cited = [anchor, *quoted_passages(question)]
    words = [
        stems(fold(m.group()))
        for m in WORD.finditer(question)
        if not any(start <= m.start() and m.end() <= end for start, end in cited)
    ]
    found: list[tuple[int, str]] = []
    for kind in kinds:
        forms = _kind_forms(kind)
        at = next((i for i in range(len(words)) if _holds(words, i, forms)), None)
        if forms and at is not None:
            found.append((at, kind))
    return [kind for _, kind in sorted(found)]


def attached_kind(question: str, kinds: Iterable[str], anchor: tuple[int, int]) -> str | None:
    """The entity kind the question binds to the entity with ``of`` (``the material of X``, ``the fields of
    X``): what the first step reaches, whatever the question asks of it next (``Which broader term covers the
    material of X?`` is the material's broader term)."""
    before = [stems(fold(m.group())) for m in WORD.finditer(question[: anchor[0]])]
    while before and before[-1] & ARTICLES:
        before.pop()
    if not before or "of" not in before[-1]:
        return None
    for kind in kinds:
        forms = _kind_forms(kind)
        if forms and _holds(before, len(before) - 1 - len(forms), forms):
            return kind
    return None


def _kind_forms(kind: str) -> list[frozenset[str]]:
    """Each word of a kind's name in its forms (``launch_vehicle``: launch, vehicle)."""
    return [stems(w) for w in query_words(kind.replace("_", " "))]


def _holds(words: list[frozenset[str]], at: int, forms: list[frozenset[str]]) -> bool:
    return at >= 0 and at + len(forms) <= len(words) and all(words[at + i] & form for i, form in enumerate(forms))


def kind_stems(kinds: Iterable[str], heads: bool = False) -> frozenset[str]:
    """The word forms of entity kinds (``launch_vehicle``: launch, vehicle), for ``plan``'s ``kinds``; with
    ``heads``, of each kind's last word alone (vehicle), the one that names what the entity is."""
    return frozenset(
        stem
        for kind in kinds
        for word in query_words(kind.replace("_", " "))[-1 if heads else 0 :]
        for stem in stems(word)
    )
