"""Full-text retrieval over whole entities, one Neo4j index per language family, and the ranking of their
body passages for a question.

A question is matched in the indexes its scripts need: Latin text in the English-analysed one (stems),
Cyrillic in the Russian one, Han/kana/hangul in the CJK one (bigrams). The Lucene query is built from
the question's content words, each quoted, so nothing a user types is Lucene syntax, and from each pair of
neighbouring content words as a sloppy phrase: an entity that holds the question's words near each other,
in order, outranks one that holds them scattered through a long body. The words (and any passage the
question quotes) find the entities, and the whole query then scores only those (``cypher/retrieval_text.cypher``
says why). Lists from several indexes are fused by rank, since their scores are not comparable.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from graphrag.names import WORD, Script, fold, phrase_text, query_words, quoted_passages, script_of, word_sequence
from graphrag.retrieval.candidates import Candidate, Evidence, Question, Starts
from graphrag.retrieval.config import TextConfig
from graphrag.retrieval.fusion import Ranked, reciprocal_rank
from graphrag.retrieval.registry import Registration, register
from graphrag.retrieval.snapshot import GraphCopy
from graphrag.stores.graph import GraphStore

MAX_TERMS = 64  # a question's first 64 content words
MAX_TERM_CHARS = 64
PASSAGE_STEM = 5
KEY_BATCH = 200  # text keys per phrase query: Lucene refuses a query of more than 1,024 clauses
ENTITY_TEXT = "entity_text"  # the full-text family of entities; its unsuffixed index holds every text as written

SUFFIXES: dict[Script, str] = {"latin": "", "cyrillic": "_ru", "cjk": "_cjk"}  # index name suffix per script


# The words that ask for an entity by another of its names (``What else is X called?``, ``Which term is also
# known as X?``, ``Как ещё называют X?``): they say nothing of the entity, yet an entry whose text happens to
# say "also known as" outranked the one that names X. Full text reads X alone ("synonym" stays: a body's
# "Synonyms:" line holds it).
NAME_FRAMES = re.compile(
    r"\b(?:(?:also\s+)?known\s+as|(?:another|other)\s+(?:word|name|term)s?\s+for|(?:also\s+)?go(?:es)?\s+by"
    r"(?:\s+the\s+name)?|else\s+(?:is|are)\b|\bcalled\b|means?\s+the\s+same\s+as"
    r"|(?:также|ещё|еще|иначе)\s+(?:известн\w*|называ\w*)(?:\s+как)?)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class TextQuery:
    """The Lucene queries of a question and the index suffixes its scripts call for (digits alone: English)."""

    lucene: str
    suffixes: tuple[str, ...]
    words: str  # the content words alone: what finds the entities the whole query then scores
    quoted: str | None = None  # the passages the question quotes, alone: what is found as written

    @classmethod
    def of(
        cls, text: str, phrases: TextConfig | None = None, leave_out: frozenset[str] = frozenset()
    ) -> TextQuery | None:
        """``phrases``: add neighbouring word pairs as sloppy phrases, as configured (None: words alone);
        ``leave_out``: words that ask for the steps of a walk (``replace`` in "What did X replace?"), which
        describe neither the start nor the answer, unless they are all the question says."""
        cited = " ".join(text[start:end] for start, end in quoted_passages(text))  # quoted words are data
        leave_out = leave_out | frozenset(query_words(" ".join(m.group() for m in NAME_FRAMES.finditer(text))))
        kept = list(dict.fromkeys([w for w in query_words(text) if w not in leave_out] + query_words(cited)))
        kept = kept or query_words(text)
        words = [w[:MAX_TERM_CHARS] for w in kept[:MAX_TERMS]]
        if not words:
            return None
        suffixes = tuple(dict.fromkeys(SUFFIXES[s] for s in map(script_of, words) if s is not None)) or ("",)
        terms = " OR ".join(f'"{w}"' for w in words)
        clauses = [terms]
        if phrases is not None and phrases.phrase_boost > 0:
            sequence = [w[:MAX_TERM_CHARS] for w in word_sequence(text) if w in kept][:MAX_TERMS]
            pairs = dict.fromkeys(f"{a} {b}" for a, b in pairwise(sequence) if a != b)
            clauses += [f'"{pair}"~{phrases.phrase_slop}^{phrases.phrase_boost:g}' for pair in pairs]
        quotes: list[str] = []
        if phrases is not None and phrases.quote_boost > 0:
            # a passage the question quotes is text it cites: found as written, it is what was asked for
            for start, end in quoted_passages(text):
                # as written, for the index's analyzer to cut into words as it cut the text indexed (`3.6`,
                # `we'd`, stop words' places): only a phrase's own syntax (quote, backslash) is escaped
                passage = fold(text[start:end])
                passage_words = list(WORD.finditer(passage))[:MAX_TERMS]
                if passage_words:  # one quoted word too: 'Aubergine' is the synonym asked for
                    written = phrase_text(passage[: passage_words[-1].end()])
                    quotes.append(f'"{written}"~{phrases.quote_slop}')
            clauses += [f"{quote}^{phrases.quote_boost:g}" for quote in quotes]
        return cls(" OR ".join(clauses), suffixes, terms, " OR ".join(quotes) or None)

    def indexes(self, family: str) -> list[str]:
        """The indexes of a family (``entity_text``, ``passage_text``) that this question's scripts need."""
        return [f"{family}{suffix}" for suffix in self.suffixes]


@dataclass(frozen=True)
class PackScripts:
    """Per pack, the share of its title words written in each script: what the pack's text is in."""

    entities: dict[str, int]
    shares: dict[str, dict[str, float]]

    @classmethod
    def of(cls, copy: GraphCopy) -> PackScripts:
        words: dict[str, Counter[str]] = defaultdict(Counter)
        sizes: Counter[str] = Counter()
        for pack, title, missing in zip(copy.entities.packs, copy.entities.titles, copy.entities.missing, strict=True):
            if not missing:
                sizes[pack] += 1
                words[pack].update(s for s in map(script_of, query_words(title)) if s is not None)
        shares = {pack: {s: n / max(1, c.total()) for s, n in c.items()} for pack, c in words.items()}
        return cls(dict(sizes), shares)

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

    def __init__(self, graph: GraphStore, config: TextConfig, k: int) -> None:
        """``k``: the fusion's rank constant, for the lists of several language indexes."""
        self._graph = graph
        self._config = config
        self._k = k

    def retrieve(self, question: Question, starts: Starts | None = None) -> list[Candidate]:
        text = TextQuery.of(question.text, self._config, question.step_words)
        if text is None:
            return []
        found = [self._found(index, text, question) for index in text.indexes(ENTITY_TEXT)]
        # found as written first, in the order of the whole query
        written = set().union(*(quoted for _, quoted in found))
        rankings = [_written_first(ranking, written) for ranking, _ in found]
        if len(rankings) == 1:
            return rankings[0]
        fused = reciprocal_rank([Ranked(ranking, 1.0) for ranking in rankings], self._k)
        return [Candidate(i, score) for i, score in fused][: question.limit]

    def _found(self, index: str, text: TextQuery, question: Question) -> tuple[list[Candidate], set[str]]:
        """One index's entities, best first by the score the whole query gives them, and those that hold a
        quoted passage as written. Hits are filtered after the index has read them (packs, kinds, and always
        placeholders, titled with their id), so a filtered search reads more than it keeps, and one that came
        back short of what it read is read again that way."""
        wanted = math.ceil(self._config.depth * question.limit)
        surplus = max(self._config.filtered_min, self._config.filtered_factor * wanted)
        filtered = question.packs is not None or question.kinds is not None
        row = self._read(index, text, question, surplus if filtered else wanted)
        if not filtered and len(row["found"]) < wanted:
            row = self._read(index, text, question, surplus)
        # an entity not yet given its key (written before keys, until the next start) keeps its words' score
        scores: dict[str, float] = {hit["id"]: hit["score"] for hit in row["found"]}
        scores.update((hit["id"], hit["score"]) for hit in row["scored"])
        written = set(row["written"])
        # what holds a quote as written is kept whatever its words scored: a filtered search reads many more
        ranked = sorted(scores.items(), key=lambda item: (item[0] not in written, -item[1], item[0]))
        return [Candidate(i, score) for i, score in ranked[: question.limit]], written

    def _read(self, index: str, text: TextQuery, question: Question, fetch: int) -> dict[str, Any]:
        (row,) = self._graph.read(
            "retrieval_text",
            index=index,
            words=text.words,
            quoted=text.quoted,
            written_index=ENTITY_TEXT,  # a quote is found as written in the index of the whole text
            lucene=text.lucene,
            fetch=fetch,
            packs=_listed(question.packs),
            kinds=_listed(question.kinds),
            batch=KEY_BATCH,
        )
        return row


@dataclass(frozen=True)
class PassageHit:
    id: str
    path: str
    lines: list[int]
    sha256: str
    text: str
    score: float = 0.0  # the weight of the question's word stems it holds (0: it shares none)


def word_stem(word: str) -> str:
    """What two words must share to match in a passage: a CJK bigram whole, else its first five letters
    (``landing`` ~ ``landed``, ``корабли`` ~ ``корабль``), a stemmer in miniature for every language."""
    return word if script_of(word) == "cjk" else word[:PASSAGE_STEM]


def stems(text: str) -> set[str]:
    """The stems of a text's content words: what a question and a passage share."""
    return set(map(word_stem, query_words(text)))


@dataclass(frozen=True)
class PassageRanking:
    """The passages of some entities for a question: each entity's best first, scored by the question's word
    stems they share, each stem weighing its inverse passage frequency among them (a word every passage holds,
    such as the pack's own name, weighs least)."""

    passages: dict[str, list[PassageHit]]
    weights: dict[str, float]

    def window(self, passage: PassageHit, chars: int) -> PassageHit:
        """Its whole lines around the line holding the heaviest of the question's stems (the first line when
        none does), at most ``chars`` long (a longer line alone whole), without blank lines at either end:
        ``lines`` still say exactly what ``text`` is, so a citation stays exact."""
        lines = passage.text.split("\n")
        weight = [sum(self.weights.get(stem, 0.0) for stem in stems(line)) for line in lines]
        first = last = max(range(len(lines)), key=lambda i: (weight[i], -i))
        size = len(lines[first])
        while True:  # grow one line below, then one above, while it fits
            grown = False
            for i in (last + 1, first - 1):
                if 0 <= i < len(lines) and size + len(lines[i]) + 1 <= chars:
                    size += len(lines[i]) + 1
                    first, last = min(first, i), max(last, i)
                    grown = True
            if not grown:
                break
        while first < last and not lines[first].strip():
            first += 1
        while last > first and not lines[last].strip():
            last -= 1
        start = passage.lines[0]
        text = "\n".join(lines[first : last + 1])
        return replace(passage, lines=[start + first, start + last], text=text)


class PassageSearch:
    """The body passages of chosen entities, ranked for a question. Few passages are candidates (those of
    at most ten entities), so they are ranked here; no index to keep, so ingest writes them cheaply."""

    def __init__(self, graph: GraphStore) -> None:
        self._graph = graph

    def ranked(self, question: str, entity_ids: Sequence[str]) -> PassageRanking:
        """Every passage of the entities, each entity's best first (ties in file order)."""
        rows = self._graph.read("retrieval_entity_passages", ids=list(entity_ids))
        wanted = stems(question)
        shared = [wanted & stems(row["text"]) for row in rows]
        frequency = Counter(stem for found in shared for stem in found)
        weights = {stem: math.log(1 + len(rows) / n) for stem, n in frequency.items()}
        out: dict[str, list[PassageHit]] = {}
        for row, found in zip(rows, shared, strict=True):
            out.setdefault(row["id"], []).append(PassageHit(**row, score=sum(weights[s] for s in found)))
        return PassageRanking({i: sorted(hits, key=lambda p: -p.score) for i, hits in out.items()}, weights)


def _written_first(ranking: list[Candidate], written: set[str]) -> list[Candidate]:
    """The hits found as written above all others, each by as much as the best hit scored: a passage the
    question quotes is what it asked for, and the fusion reads that from the scores."""
    lift = max((c.score for c in ranking), default=0.0)
    lifted = [Candidate(c.id, c.score + lift) if c.id in written else c for c in ranking]
    return sorted(lifted, key=lambda c: -c.score)


def _listed(values: Sequence[str] | None) -> list[str] | None:
    return None if values is None else list(values)


register(
    "text",
    Registration(
        lambda sources, config: TextSearch(sources.graph, config.text, config.fusion.k),
        "Full text over title, aliases, summary and body, with phrase clauses.",
        script="reads",
    ),
)
