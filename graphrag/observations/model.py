"""What the journal stores and answers: one observed search with its returned hits, and the owner-side views."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from graphrag.observations.admission import Admission

HitKind = Literal["entity", "passage"]
Tool = Literal["pack_search", "pack_context"]


def sha256(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


@dataclass(frozen=True)
class ObservedHit:
    """One returned hit: its rank among hits of its kind, the hash of its file's whole indexed content (read in
    the query that produced it), and the hashes of its excerpt as retrieved and as returned (after the budget)."""

    kind: HitKind
    id: str
    rank: int
    score: float | None
    content_sha256: bytes | None
    retrieved_excerpt_sha256: bytes
    returned_excerpt_sha256: bytes
    truncated: bool


@dataclass(frozen=True)
class Observation:
    admission: Admission
    tool: Tool
    search_mode: str
    hits: list[ObservedHit]
    omitted: int  # hits the response budget left out (not returned, so not recorded as hits)
    available: int  # the ranking's length after fusion, before the limit cut it
    corpus_version: str | None
    embedder_version: str | None
    service_version: str | None

    def parameters(self) -> dict[str, object]:
        """The parameters of ``sql/observation_record.sql``: an empty answer is one ``none`` row."""
        a = self.admission
        hits = self.hits
        return {
            "observation_id": a.observation_id,
            "account": a.account,
            "observed_at": a.observed_at,
            "tool": self.tool,
            "search_mode": self.search_mode,
            "query_hash": a.query_hash,
            "query_text": a.query_text,
            "text_expires_at": a.text_expires_at,
            "returned_count": len(hits),
            "omitted_count": self.omitted,
            "available_count": self.available,
            "corpus_version": self.corpus_version,
            "embedder_version": self.embedder_version,
            "service_version": self.service_version,
            "hit_ids": [h.id for h in hits] or [""],
            "hit_kinds": [h.kind for h in hits] or ["none"],
            "hit_ranks": [h.rank for h in hits] or [0],
            "scores": [h.score for h in hits] or [None],
            "content_sha256": [h.content_sha256 for h in hits] or [None],
            "retrieved_sha256": [h.retrieved_excerpt_sha256 for h in hits] or [None],
            "returned_sha256": [h.returned_excerpt_sha256 for h in hits] or [None],
            "truncated": [h.truncated for h in hits] or [False],
        }


class ExportCandidate(BaseModel):
    """One line of an export file: a query ``graphrag eval record`` can run (``queryId``, ``text``), with
    what the service returned then and the deadline by which the copy must be gone."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    query_id: str = Field(description="The observation id of the latest snapshot of this query.")
    text: str
    tool: str
    mode: str
    observed_at: datetime
    expires_at: datetime = Field(description="The earlier of the text's and the record's deadline.")
    returned: list[str] = Field(description="The entity ids returned then, best first.")


class ExportFile(BaseModel):
    """An unlabelled candidate pool: ``graphrag eval record`` reads its ``queries``."""

    queries: list[ExportCandidate]


class MaintenanceStatus(BaseModel):
    expired_records: int
    expired_texts: int
    oldest_overdue_seconds: float
    last_success_at: datetime | None
    alarm: bool
