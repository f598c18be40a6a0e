"""Entity linking: the entities a question names, each with how sure the link is.

Every name (id, title, alias, and their Latin transliteration) is reduced to its ``name_tokens``, so
``PEP 8``, ``pep-0008`` and ``Юрий Гагарин`` / ``Yuriy Gagarin`` are found as phrases anywhere in the
question; the longest known name wins at each position, and a name several entities share links none.

A match is not yet a reference: ``python3``, ``file`` or ``make`` are ids and ordinary words at once. So
each link carries a confidence, measured in this corpus rather than set by rule: how few *other*
entities' text holds the phrase (``1 - ln(1 + others) / ln(1 + entities)``; a name every entity
mentions is a word, and so is one that more entities mention than are counted, ``frequency_cap``).
A question that writes a name the way only a reference would, quoted, or an id shaped like one
(``PEP 513`` for ``PEP-0513``, never ``Python 3`` for ``python3``), is sure whatever the counts say.
Single words of many-word names (a surname) link too, when one entity alone has them.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

from graphrag.names import (
    INTERROGATIVES,
    SORT_NOUNS,
    STOP_WORDS,
    WORD,
    fold,
    name_token_spans,
    name_tokens,
    quoted_passages,
    script_of,
    transliterated,
)
from graphrag.retrieval.candidates import Candidate, Evidence, Mention, Question, Starts
from graphrag.retrieval.config import LinkingConfig
from graphrag.retrieval.snapshot import GraphCopy, GraphSnapshot
from graphrag.stores.graph import GraphStore

Reading = Literal["reference", "name", "cited", "kind"]
_STRENGTH: dict[Reading, int] = {"cited": 0, "kind": 0, "name": 1, "reference": 2}
UNNAMED: frozenset[Reading] = frozenset({"cited", "kind"})  # uses of a name that do not name its entity
# The words that open a description the question goes on to quote: ``the thing described as "..."``, ``the
# term defined as``, ``the PEP that says``, ``the entry containing the words``, ``группировка с пояснением
# «...»``, ``группировка, описанная как``.
_DESCRIBING = re.compile(
    r"(?:\w+ed|as|that|which|whose|containing|with|says?|saying|known|\w+нн\w*|с|со|под|котор\w*|чь?[еёия]\w*)",
    re.IGNORECASE,
)
MAX_HEADING_WORDS = 5  # words between a name and the passage whose description it heads
MAX_QUERY_CHARS = 4000  # names are looked for in a question's first 4,000 characters
_OPENING_QUOTES = "\"'`«“‘„"
_CLOSING_QUOTES = "\"'`»”’“"
_ID_WORD_BREAK = re.compile(r"[\s._:/\-]+")
_INDEXES = {"latin": "entity_text", "cyrillic": "entity_text_ru", "cjk": "entity_text_cjk"}


@dataclass(frozen=True)
class NameTable:
    """Name key (tokens joined by a space) -> the one entity row it names; ``partial`` holds the single
    words of many-word names that one entity alone has. ``frequency`` caches how many entities' text
    holds a key (the table is rebuilt, and the cache with it, whenever the graph changes)."""

    rows: dict[str, int]
    partial: dict[str, int]
    id_keys: dict[int, str]
    longest: int
    entities: int
    frequency: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, copy: GraphCopy, config: LinkingConfig) -> NameTable:
        owners: dict[str, set[int]] = defaultdict(set)
        words: dict[str, set[int]] = defaultdict(set)
        entities = copy.entities
        id_keys: dict[int, str] = {}
        for row, entity_id in enumerate(entities.ids):
            if entities.missing[row]:
                continue
            id_keys[row] = " ".join(name_tokens(entity_id))
            for name in (entity_id, entities.titles[row], *entities.aliases[row]):
                spellings = {name, transliterated(name)} if config.transliterate else {name}
                for spelling in spellings:
                    tokens = name_tokens(spelling)
                    if _distinctive(tokens, config.max_name_tokens):
                        owners[" ".join(tokens)].add(row)
                    if config.partial_names and len(tokens) > 1:
                        for word in tokens:
                            if _distinctive([word], 1) and len(word) >= config.min_partial_chars:
                                words[word].add(row)
        rows = {key: next(iter(found)) for key, found in owners.items() if len(found) == 1}
        partial = {w: next(iter(f)) for w, f in words.items() if len(f) == 1 and w not in owners}
        return cls(
            rows=rows,
            partial=partial,
            id_keys=id_keys,
            longest=max((key.count(" ") + 1 for key in rows), default=0),
            entities=int((~entities.missing).sum()),
        )


def _distinctive(tokens: list[str], most: int) -> bool:
    """A name worth looking for: not too long to be quoted, and not a lone stop word, number or short word."""
    if not tokens or len(tokens) > most:
        return False
    if len(tokens) > 1:
        return any(not t.isdigit() for t in tokens)
    word = tokens[0]
    return not word.isdigit() and word not in STOP_WORDS and len(word) >= 3


class EntityLinker:
    """The ``linked`` retriever: named entities in the order the question names them, each scored by the
    link's confidence (0..1)."""

    evidence: Evidence = "linked"

    def __init__(self, graph: GraphStore, snapshot: GraphSnapshot, config: LinkingConfig) -> None:
        self._graph = graph
        self._snapshot = snapshot
        self._config = config

    def mentions(self, text: str) -> tuple[Mention, ...]:
        """Every name the question uses, left to right, the longest at each position (read once per question,
        into ``Question.mentions``)."""
        table = self.table()
        question = text[:MAX_QUERY_CHARS]
        spans = name_token_spans(question)
        found = _scan(table, spans)
        if self._config.transliterate:
            latin = [(t, s, e) for token, s, e in spans for t in _latin(token)]
            if latin != spans:
                seen = {m.row for m in found}
                # names, not ids: ``ОКВЭД 2`` is the classifier's name, not the Latin id OKVED.02
                found += [m for m in _scan(table, latin) if m.row not in seen and table.id_keys.get(m.row) != m.key]
        return tuple(sorted(found, key=lambda m: m.start))

    def span_of(self, question: Question, entity_id: str) -> tuple[int, int] | None:
        """Where the question first names that entity (character offsets)."""
        index = self._snapshot.current().entities.index
        row = index.get(entity_id)
        return next(((m.start, m.end) for m in question.mentions if m.row == row), None)

    def readings(self, question: Question) -> dict[str, Reading]:
        """How the question uses each name, the strongest use per entity: as a ``reference`` (quoted on
        its own, or an id written as one), as a ``name`` in its prose, ``cited`` inside a passage it
        quotes (a description that happens to name it), or as a ``kind``: what the answer is (``What whole
        ...``) or what a description it quotes is of (``the thing described as "..."``), not which entity."""
        table = self.table()
        ids = self._snapshot.current().entities.ids
        text = question.text
        passages = quoted_passages(text)
        found: dict[str, Reading] = {}
        for m in question.mentions:
            whole = _bracketed(text, m.start, m.end)
            if any(start <= m.start and m.end <= end and (start, end) != whole for start, end in passages):
                reading: Reading = "cited"
            elif self._as_reference(table, m, text, ids[m.row]):
                reading = "reference"
            elif _asked(text, m.start) or _heads(text, m.end, passages):
                reading = "kind"
            else:
                reading = "name"
            entity = ids[m.row]
            if entity not in found or _STRENGTH[reading] > _STRENGTH[found[entity]]:
                found[entity] = reading
        return found

    def named_by_id(self, question: Question) -> set[str]:
        """The entities the question names by their id, in any spelling (``sm-mission-apollo-011``): never
        an ordinary phrase, so the question is about them wherever they stand."""
        table = self.table()
        ids = self._snapshot.current().entities.ids
        return {ids[m.row] for m in question.mentions if not m.partial and table.id_keys.get(m.row) == m.key}

    def retrieve(self, question: Question, starts: Starts | None = None) -> list[Candidate]:
        table = self.table()
        entities = self._snapshot.current().entities
        mentions = [
            m
            for m in question.mentions
            if (question.packs is None or entities.packs[m.row] in question.packs)
            and (question.kinds is None or entities.kinds[m.row] in question.kinds)
        ]
        self._count(table, [m.key for m in mentions])
        best: dict[int, float] = {}
        for mention in mentions:
            sure = self._confidence(table, mention, question.text, entities.ids[mention.row])
            best[mention.row] = max(best.get(mention.row, 0.0), sure)
        return [Candidate(entities.ids[row], score) for row, score in best.items() if score > 0][: question.limit]

    def table(self) -> NameTable:
        """The name table of the current graph copy (built on first use after the copy changes)."""
        config = self._config
        table: NameTable = self._snapshot.derived(f"names:{config!r}", lambda copy: NameTable.of(copy, config))
        return table

    def _as_reference(self, table: NameTable, mention: Mention, text: str, entity_id: str) -> bool:
        if _quoted(text, mention.start, mention.end):
            return True
        as_id = not mention.partial and table.id_keys.get(mention.row) == mention.key
        return as_id and _written_as_id(text[mention.start : mention.end], entity_id)

    def _confidence(self, table: NameTable, mention: Mention, text: str, entity_id: str) -> float:
        if self._as_reference(table, mention, text, entity_id):
            return 1.0
        if mention.partial and not _written_as_name(text, mention.start):
            return 0.0
        count = table.frequency.get(mention.key, 0)
        if count >= self._config.frequency_cap:
            return 0.0  # counting stopped: as common as a word gets, whatever the pack's size
        others = max(0, count - 1)  # the entity's own text holds its name
        return max(0.0, 1.0 - math.log1p(others) / math.log1p(max(table.entities, 1)))

    def _count(self, table: NameTable, keys: list[str]) -> None:
        """How many entities' text holds each new key, read in one query (cached with the table)."""
        phrases = [
            {"key": key, "index": _INDEXES[script_of(key) or "latin"], "lucene": f'"{key}"'}
            for key in dict.fromkeys(keys)
            if key not in table.frequency
        ]
        if not phrases:
            return
        for row in self._graph.read("retrieval_name_frequency", phrases=phrases, cap=self._config.frequency_cap):
            table.frequency[row["key"]] = int(row["entities"])


def _scan(table: NameTable, spans: list[tuple[str, int, int]]) -> list[Mention]:
    found: list[Mention] = []
    position = 0
    tokens = [t for t, _, _ in spans]
    while position < len(tokens):
        for length in range(min(table.longest, len(tokens) - position), 0, -1):
            key = " ".join(tokens[position : position + length])
            row = table.rows.get(key)
            if row is not None:
                found.append(Mention(row, key, spans[position][1], spans[position + length - 1][2], False))
                position += length
                break
        else:
            row = table.partial.get(tokens[position])
            if row is not None:
                found.append(Mention(row, tokens[position], spans[position][1], spans[position][2], True))
            position += 1
    return found


def _latin(token: str) -> list[str]:
    return [token] if token.isascii() else name_tokens(transliterated(token)) or [token]


def _asked(text: str, start: int) -> bool:
    """Whether the name starting at ``start`` follows a word asking which one (``What whole ...``), or a word
    for sorts after one (``What kind of thing ...``)."""
    before = [fold(w) for w in WORD.findall(text[:start])[-3:]]  # at most: which kind of
    if len(before) == 3 and before[-1] == "of" and SORT_NOUNS.fullmatch(before[-2]):
        before = before[:-2]
    return bool(before) and before[-1] in INTERROGATIVES


def _heads(text: str, end: int, passages: list[tuple[int, int]]) -> bool:
    """Whether the name ending at ``end`` opens a description the question quotes a few words on."""
    following = next((start for start, _ in passages if start >= end), None)
    if following is None:
        return False
    between = WORD.findall(text[end:following])
    return 0 < len(between) <= MAX_HEADING_WORDS and _DESCRIBING.fullmatch(between[0]) is not None


def _quoted(text: str, start: int, end: int) -> bool:
    start, end = _bracketed(text, start, end)
    return start > 0 and end < len(text) and text[start - 1] in _OPENING_QUOTES and text[end] in _CLOSING_QUOTES


def _bracketed(text: str, start: int, end: int) -> tuple[int, int]:
    """A name's span with the punctuation that closes it (``(Error as Signal)``, ``Inc.``): names match
    by words, so a quoted title ending in a bracket is still the whole quoted passage."""
    while start > 0 and _edge(text[start - 1], _OPENING_QUOTES):
        start -= 1
    while end < len(text) and _edge(text[end], _CLOSING_QUOTES):
        end += 1
    return start, end


def _edge(char: str, quotes: str) -> bool:
    return not (char.isalnum() or char.isspace() or char == "_" or char in quotes)


def _written_as_name(text: str, start: int) -> bool:
    """A single word taken from a longer name stands for it only when written as a name: capitalised,
    and not merely because it opens a sentence (``Gagarin``, not ``debugger`` or ``Added``)."""
    before = text[:start].rstrip()
    return text[start].isupper() and bool(before) and before[-1] not in ".!?:;\"'«“"


def _written_as_id(surface: str, entity_id: str) -> bool:
    """The question writes an id-shaped id (digits, separators or capitals, not a plain word) without
    splitting any of its words: ``PEP 513`` or ``pep513`` for ``PEP-0513``, but not ``Python 3`` for
    ``python3``, where the space makes two words of one."""
    if not any(c.isdigit() or c in "._:/-" or c.isupper() for c in entity_id):
        return False
    if script_of(surface) != script_of(entity_id):  # ``ОКВЭД 2`` names a classifier; the id OKVED.02 is Latin
        return False
    return _breaks(surface) <= _breaks(entity_id)


def _breaks(text: str) -> set[int]:
    """After how many name tokens each word of ``text`` ends (word = run between separators or spaces)."""
    ends: set[int] = set()
    count = 0
    for word in _ID_WORD_BREAK.split(text.strip()):
        count += len(name_tokens(word))
        ends.add(count)
    return ends
