"""What every retriever hands the fusion: one ranked list of candidate entities, under one interface.

In the spirit of neo4j-graphrag-python's retrievers: each strategy (vector, text, linking, graph) is a
small class with one method, ``retrieve(query)``, and returns ``Candidate``s best first; the fusion
needs nothing else, so a new strategy is one more class, not a change to the others.
"""

from __future__ import annotations

from collections.abc import Sequence
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
class Query:
    """One question as every retriever sees it; ``seeds`` are the entities the graph walks start from
    (weight each) and ``steps`` the typed steps the question asks for (``guidance``), both filled by the
    search from the other retrievers' answers."""

    text: str
    limit: int
    packs: Sequence[str] | None = None
    kinds: Sequence[str] | None = None
    seeds: dict[str, float] = field(default_factory=dict)
    steps: tuple[frozenset[Step], ...] = ()
    hidden: frozenset[str] = frozenset()  # packs the caller may not see: no candidate from them, no walk through
    step_words: frozenset[str] = frozenset()  # words that ask for relation steps: the walks read them, text not


class Retriever(Protocol):
    """One strategy: candidates best first, at most ``query.limit``, within the query's packs and kinds."""

    evidence: Evidence

    def retrieve(self, query: Query) -> list[Candidate]: ...


@runtime_checkable
class Warmed(Protocol):
    """A retriever with tables of its own to build from the graph copy, which the server builds at start
    (``PackSearch.warm``) rather than in its first call."""

    def warm(self) -> None: ...
