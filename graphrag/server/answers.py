"""The answers of ``pack_search`` and ``pack_context`` as they go on the wire: retrieval's own answer,
wrapped with what only the server knows: the journal entry that recorded it (``observation_id``, and a
passage's ``hit_id`` for ``retrieval_feedback``), the team hits left out because their file changed in
GitHub (``stale``), and what the response budget left out. Retrieval's models stay free of all three.
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from pydantic import BaseModel, Field, PrivateAttr

from graphrag.retrieval.models import (
    ContextEntity,
    ContextPassage,
    ContextResult,
    SearchHit,
    SearchResult,
    absent,
    hint_field,
)
from graphrag.server.observed import AnswerHit

OBSERVATION_ID = "The journal entry of this answer (only when the retrieval observations journal recorded it)."
STALE = "Team hits left out: their file changed in GitHub since it was indexed (a reindex is queued)."


def _observation_field() -> Any:
    """``observation_id``: on the wire only when the journal records the answer, so nothing changes without it."""
    return Field(default=None, exclude_if=absent, description=OBSERVATION_ID)


def passage_hit_id(passage: ContextPassage) -> str:
    """The id ``retrieval_feedback`` takes for a passage: its entity and line range."""
    return f"{passage.id}#L{passage.lines[0]}-L{passage.lines[-1]}"


class AnsweredHit(SearchHit):
    observation_id: str | None = _observation_field()


class SearchAnswer(BaseModel):
    results: list[AnsweredHit] = Field(description="Best first.")
    omitted: int = Field(
        default=0, description="Hits left out (from the end) because even with shortened summaries they did not fit."
    )
    stale: list[str] = Field(default_factory=list, description=STALE)
    hint: str = hint_field()
    _available: int = PrivateAttr(default=0)
    _mode: str = PrivateAttr(default="hybrid")

    @property
    def available(self) -> int:
        return self._available

    @property
    def search_mode(self) -> str:
        return self._mode

    @property
    def left_out(self) -> int:
        return self.omitted

    def hits(self) -> list[AnswerHit]:
        return [AnswerHit("entity", h.id, h.summary, h.sha256, h.score, h.content_truncated) for h in self.results]

    def stamp(self, observation_id: str) -> None:
        for hit in self.results:
            hit.observation_id = observation_id


class AnsweredEntity(ContextEntity):
    observation_id: str | None = _observation_field()


class AnsweredPassage(ContextPassage):
    observation_id: str | None = _observation_field()
    hit_id: str | None = Field(
        default=None, exclude_if=absent, description="With observation_id: the id retrieval_feedback takes for it."
    )


class ContextAnswer(BaseModel):
    entities: list[AnsweredEntity] = Field(description="Most useful first: named entities, then retrieved ones.")
    paths: list[list[str]] = Field(description="Typed paths connecting them: alternating ids and relation names.")
    passages: list[AnsweredPassage] = Field(description="Body passages most relevant to the question, best first.")
    omitted_passages: int = Field(
        default=0, description="Passages left out (from the end) because even shortened they did not fit the budget."
    )
    stale: list[str] = Field(default_factory=list, description=STALE)
    hint: str = hint_field()
    _available: int = PrivateAttr(default=0)

    @property
    def available(self) -> int:
        return self._available

    @property
    def search_mode(self) -> str:
        return "hybrid"

    @property
    def left_out(self) -> int:
        return self.omitted_passages

    def hits(self) -> list[AnswerHit]:
        entities = [AnswerHit("entity", e.id, e.summary, e.sha256, e.score, e.content_truncated) for e in self.entities]
        return entities + [
            AnswerHit("passage", passage_hit_id(p), p.text, p.sha256, None, p.content_truncated) for p in self.passages
        ]

    def stamp(self, observation_id: str) -> None:
        for entity in self.entities:
            entity.observation_id = observation_id
        for passage in self.passages:
            passage.observation_id = observation_id
            passage.hit_id = passage_hit_id(passage)


def search_answer(result: SearchResult, stale: Set[str], mode: str) -> SearchAnswer:
    """The hits that are not stale; how many there were and how they were found stay for the journal."""
    kept = [hit for hit in result.results if hit.id not in stale]
    answer = SearchAnswer(results=[AnsweredHit(**dict(hit)) for hit in kept], stale=sorted(stale))
    answer._available, answer._mode = result.available, mode
    return answer


def context_answer(result: ContextResult, stale: Set[str]) -> ContextAnswer:
    """Stale entities go with their passages and the paths through them."""
    files = {(e.path, e.sha256) for e in result.entities if e.id in stale}
    answer = ContextAnswer(
        entities=[AnsweredEntity(**dict(entity)) for entity in result.entities if entity.id not in stale],
        paths=[path for path in result.paths if not stale & set(path[::2])],
        passages=[
            AnsweredPassage(**dict(passage))
            for passage in result.passages
            if (passage.path, passage.sha256) not in files
        ],
        stale=sorted(stale),
        hint=result.hint,
    )
    answer._available = result.available
    return answer
