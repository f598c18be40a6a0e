"""The observation of the tool call being served, between the journal's hook and the tool's declaration.

The hook (``observing``) admits a call and exposes an ``Observed`` through a context variable; the declaration
of an observed tool (``declaring``) stamps the answer with the observation id before the response budget (the
id counts against it), notes every hit as retrieved, and after the budget notes which hits were returned.
Any answer that lists its hits (``Observable``) is observed the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from graphrag.observations.admission import Admission
from graphrag.observations.model import HitKind, ObservedHit, sha256


@dataclass(frozen=True)
class AnswerHit:
    """One hit of an answer as the journal sees it: what it is, the text shown for it, its file's hash."""

    kind: HitKind
    id: str
    excerpt: str
    content_sha256: str | None
    score: float | None
    truncated: bool


@runtime_checkable
class Observable(Protocol):
    """An answer the journal records: its hits, how many there were before the limit, the search mode."""

    @property
    def available(self) -> int: ...

    @property
    def search_mode(self) -> str: ...

    @property
    def left_out(self) -> int: ...

    def hits(self) -> list[AnswerHit]: ...

    def stamp(self, observation_id: str) -> None: ...


@dataclass
class _Retrieved:
    content_sha256: bytes | None
    excerpt_sha256: bytes
    score: float | None


@dataclass
class Observed:
    """One admitted call, between the hook and the tool (which runs in a worker thread with a copied context)."""

    admission: Admission
    search_mode: str = "hybrid"
    retrieved: dict[tuple[HitKind, str], _Retrieved] = field(default_factory=dict)
    hits: list[ObservedHit] | None = None  # set once the answer is fitted to the budget
    omitted: int = 0
    available: int = 0

    @property
    def observation_id(self) -> str:
        return str(self.admission.observation_id)

    def retrieve(self, answer: Observable) -> None:
        """Before the budget: each hit's text as retrieved and its file's hash are noted."""
        self.search_mode = answer.search_mode
        self.available = answer.available
        for hit in answer.hits():
            content = bytes.fromhex(hit.content_sha256) if hit.content_sha256 else None
            self.retrieved[(hit.kind, hit.id)] = _Retrieved(content, sha256(hit.excerpt), hit.score)

    def returned(self, fitted: Observable) -> None:
        """After the budget: the hits kept, ranked per kind, each with what the budget did to its text."""
        ranks: dict[HitKind, int] = {}
        self.omitted = fitted.left_out
        self.hits = []
        for hit in fitted.hits():
            ranks[hit.kind] = ranks.get(hit.kind, 0) + 1
            found = self.retrieved[(hit.kind, hit.id)]
            self.hits.append(
                ObservedHit(
                    kind=hit.kind,
                    id=hit.id,
                    rank=ranks[hit.kind],
                    score=found.score,
                    content_sha256=found.content_sha256,
                    retrieved_excerpt_sha256=found.excerpt_sha256,
                    returned_excerpt_sha256=sha256(hit.excerpt),
                    truncated=hit.truncated,
                )
            )


_observed: ContextVar[Observed | None] = ContextVar("graphrag_observed", default=None)


def current_observation() -> Observed | None:
    """The observation of the tool call being served, if the hook admitted it."""
    return _observed.get()


@contextmanager
def observing(observed: Observed) -> Iterator[None]:
    """``observed`` is the current observation inside the block (the tool call the hook admitted)."""
    token = _observed.set(observed)
    try:
        yield
    finally:
        _observed.reset(token)
