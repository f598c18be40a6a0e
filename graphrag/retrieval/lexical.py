"""Full-text retrieval over whole entities and over body passages, one Neo4j index per language family.

A question is matched in the indexes its scripts need: Latin text in the English-analysed one (stems),
Cyrillic in the Russian one, Han/kana/hangul in the CJK one (bigrams). The Lucene query is built from
the question's content words, each quoted, so nothing a user types is Lucene syntax; lists from several
indexes are fused by rank, since their scores are not comparable.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from graphrag.names import CJK_CHARS, query_words
from graphrag.retrieval.candidates import Candidate, Evidence, Query
from graphrag.retrieval.fusion import reciprocal_rank
from graphrag.retrieval.snapshot import GraphCopy
from graphrag.stores.graph import GraphStore

MAX_TERMS = 64  # a question's first 64 content words
MAX_TERM_CHARS = 64
FETCH_FACTOR = 4  # index hits read per hit wanted, so pack and kind filters still leave enough
MIN_FETCH = 100

_CYRILLIC_CHARS = "\u0400-\u04ff"
_LATIN = re.compile(f"[^\\W\\d_{_CYRILLIC_CHARS}{CJK_CHARS}]")  # letters of other scripts go with Latin
_CYRILLIC = re.compile(f"[{_CYRILLIC_CHARS}]")
_CJK = re.compile(f"[{CJK_CHARS}]")
_LANGUAGES = (("", _LATIN), ("_ru", _CYRILLIC), ("_cjk", _CJK))  # index name suffix, script


@dataclass(frozen=True)
class TextQuery:
    """The Lucene query of a question and the index suffixes its scripts call for (digits alone: English)."""

    lucene: str
    suffixes: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> TextQuery | None:
        words = [w[:MAX_TERM_CHARS] for w in query_words(text)[:MAX_TERMS]]
        if not words:
            return None
        suffixes = tuple(dict.fromkeys(s for s in map(script_of, words) if s is not None)) or ("",)
        return cls(" OR ".join(f'"{w}"' for w in words), suffixes)


def script_of(word: str) -> str | None:
    """The index suffix of the script a word is written in (None for digits alone)."""
    return next((suffix for suffix, script in _LANGUAGES if script.search(word)), None)


@dataclass(frozen=True)
class PackScripts:
    """Per pack, the share of entities whose title is written in each script: what its text is in."""

    entities: dict[str, int]
    shares: dict[str, dict[str, float]]

    @classmethod
    def of(cls, copy: GraphCopy) -> PackScripts:
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        sizes: Counter[str] = Counter()
        for pack, title, missing in zip(copy.entities.packs, copy.entities.titles, copy.entities.missing, strict=True):
            if not missing:
                sizes[pack] += 1
                counts[pack].update({s for s in map(script_of, query_words(title)) if s is not None})
        return cls(dict(sizes), {pack: {s: n / sizes[pack] for s, n in c.items()} for pack, c in counts.items()})

    def coverage(self, text: str, packs: Sequence[str] | None) -> float:
        """How well full text can match the question here: the share of its words whose script the
        searched packs are written in (1 for an English question over English packs, near 0 for a
        Russian question over English ones, where only meaning can match)."""
        chosen = [p for p in (packs if packs is not None else self.entities) if p in self.entities]
        total = sum(self.entities[p] for p in chosen)
        scripts = [s for s in map(script_of, query_words(text)) if s is not None]
        if not scripts or not total:
            return 1.0
        share = {s: sum(self.entities[p] * self.shares.get(p, {}).get(s, 0.0) for p in chosen) / total for s in scripts}
        return sum(share[s] for s in scripts) / len(scripts)


class TextSearch:
    """The ``text`` retriever: entities whose title, aliases, summary or body match the question."""

    evidence: Evidence = "text"

    def __init__(
        self, graph: GraphStore, units: tuple[tuple[str, str], ...] = (("retrieval_text", "entity_text"),)
    ) -> None:
        self._graph = graph
        self._units = units

    def retrieve(self, query: Query) -> list[Candidate]:
        text = TextQuery.of(query.text)
        if text is None:
            return []
        rankings = [
            [
                Candidate(row["id"], row["score"])
                for row in self._graph.read(
                    cypher,
                    index=f"{index}{suffix}",
                    lucene=text.lucene,
                    fetch=max(MIN_FETCH, FETCH_FACTOR * query.limit),
                    packs=_listed(query.packs),
                    kinds=_listed(query.kinds),
                    limit=query.limit,
                )
            ]
            for cypher, index in self._units
            for suffix in text.suffixes
        ]
        if len(rankings) == 1:
            return rankings[0]
        return [Candidate(i, score) for i, score in reciprocal_rank(rankings, [1.0] * len(rankings))][: query.limit]


@dataclass(frozen=True)
class PassageHit:
    id: str
    path: str
    lines: list[int]
    sha256: str
    text: str
    score: float


class PassageSearch:
    """The body passages of chosen entities that best match a question, for citation."""

    def __init__(self, graph: GraphStore) -> None:
        self._graph = graph

    def matching(self, question: str, entity_ids: Sequence[str], fetch: int) -> list[PassageHit]:
        """Matching passages of ``entity_ids``, best first (each language's index in turn)."""
        text = TextQuery.of(question)
        if text is None or not entity_ids:
            return []
        hits: list[PassageHit] = []
        for suffix in text.suffixes:
            rows = self._graph.read(
                "retrieval_passages", index=f"passage_text{suffix}", lucene=text.lucene, fetch=fetch, ids=entity_ids
            )
            hits += [PassageHit(**row) for row in rows]
        return hits

    def openings(self, entity_ids: Sequence[str]) -> list[PassageHit]:
        """The first passage of each entity that has a body."""
        return [PassageHit(**row) for row in self._graph.read("retrieval_opening_passages", ids=list(entity_ids))]


def _listed(values: Sequence[str] | None) -> list[str] | None:
    return None if values is None else list(values)
