"""The shapes clients see: a memory record as ``search`` returns it, and the answers of the write tools."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from graphrag.retrieval.models import Clippable

Status = Literal["unverified", "stale", "conflict"]
Relation = Literal["relates_to", "fixes_issue", "supersedes"]


class GraphRelation(BaseModel):
    relation: Relation
    direction: Literal["outgoing", "incoming"]
    weight: float
    target_id: str
    preview: str = Field(description="The first 120 characters (code points) of the related record.")


class MemoryRecord(Clippable):
    """One record with provenance and status; field names and meanings are the contract of docs/memory.md.

    ``content_truncated`` (from ``Clippable``) is the response budget's flag, true when it shortened
    ``content`` or a link preview (link previews are among the texts the budget may shorten).
    """

    clip_fields: ClassVar[tuple[str, ...]] = ("content",)

    id: str
    workspace: str
    scope: str
    content: str
    source: str
    source_id: str | None
    source_hash: str | None
    source_revision: str | None
    fact_key: str | None
    confidence: float
    status: Status
    derived_from: list[str]
    superseded_by: str | None
    score: int = Field(description="Matched query words (0 outside search).")
    graph_relations: list[GraphRelation]
    created_at: str
    updated_at: str

    def clip_targets(self) -> list[tuple[BaseModel, str]]:
        return [*super().clip_targets(), *((link, "preview") for link in self.graph_relations)]


class SearchResponse(BaseModel):
    """The contract's shape: the hits in ``result``, best first (``omitted``: records the budget left out)."""

    result: list[MemoryRecord]
    omitted: int = Field(
        default=0, description="Records left out (from the end) because even with shortened texts they did not fit."
    )


class StatusCounts(BaseModel):
    unverified: int = 0
    stale: int = 0
    conflict: int = 0


class ValidatedRecord(BaseModel):
    id: str
    fact_key: str | None
    source_hash: str | None
    source_revision: str | None
    status: Status
    stale_reason: str | None = Field(description="Why the archivist marked it stale, if it did.")


class Validation(BaseModel):
    """``validate_memory``: every record of one source with its status after the check."""

    workspace: str
    source_id: str
    current_source_hash: str | None
    checked: int
    counts: StatusCounts
    records: list[ValidatedRecord]


class ArchivistRun(BaseModel):
    """What one archivist pass left in a workspace (totals, not changes: a rerun gives the same numbers)."""

    workspace: str
    records: int
    embedded: int = Field(description="Records (re-)embedded in this run.")
    supersedes: int
    relates_to: int
    fixes_issue: int
    stale: int
