"""What every retriever reads and hands the fusion: one ``Question``, one ranked list of candidates.

In the spirit of neo4j-graphrag-python's retrievers: each strategy (vector, text, linking, graph) is a
small class with one method, ``retrieve(question, starts)``, and returns ``Candidate``s best first; the
fusion needs nothing else, so a new strategy is one more class, not a change to the others. The question
is read once per call (``PackSearch.read``) and never changes after; where the walks leave from
(``Starts``) is decided later, from the other lists, and handed only to the retrievers that walk.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from graphrag.retrieval.vocabulary import Step

Evidence = Literal["linked", "text", "vector", "graph"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """An entity one retriever found: its score in that retriever's own terms, and for a graph
    candidate the typed path from a seed (``[seed, relation, id, ...]``, ``^`` for a backward hop)."""

    id: str
    score: float
    via: list[str] | None = None


@dataclass(frozen=True)
class Mention:
    """Where a question names an entity: its row, the key that matched and the span of the question."""

    row: int
    key: str
    start: int
    end: int
    partial: bool


@dataclass(frozen=True)
class Question:
    """One question, read once: the request (text, limit, the packs and kinds asked, the packs the caller may
    not see: no candidate from them, no walk through them), the names it uses, left to right (``linking``),
    and the words that ask for relation steps (``guidance``: the walks read them, full text leaves them out)."""

    text: str
    limit: int
    packs: Sequence[str] | None = None
    kinds: Sequence[str] | None = None
    hidden: frozenset[str] = frozenset()
    mentions: tuple[Mention, ...] = ()
    step_words: frozenset[str] = frozenset()
    relation_words: Mapping[str, tuple[Step, ...]] = field(default_factory=dict)  # read by meaning (translated.py)


@dataclass(frozen=True)
class Starts:
    """Where the walking retrievers leave from: the seeds (weight each) and the typed steps the question asks
    for, both decided by the search from the other retrievers' answers."""

    seeds: Mapping[str, float] = field(default_factory=dict)
    steps: tuple[frozenset[Step], ...] = ()


class Retriever(Protocol):
    """One strategy: candidates best first, at most ``question.limit``, within the question's packs and kinds;
    ``starts`` only for one registered as seeded (it runs after the others)."""

    evidence: Evidence

    def retrieve(self, question: Question, starts: Starts | None = None) -> list[Candidate]: ...


@runtime_checkable
class Warmed(Protocol):
    """A retriever with tables of its own to build from the graph copy, which the server builds at start
    (``PackSearch.warm``) rather than in its first call."""

    def warm(self) -> None: ...
