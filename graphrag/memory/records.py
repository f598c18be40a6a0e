"""Reading and saving records: the one selection query behind search, save and validation."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graphrag.memory.model import GraphRelation, MemoryRecord
from graphrag.memory.text import key_text, preview, text_pieces, text_queries
from graphrag.names import TEAM_PACK_PREFIX, fold
from graphrag.stores.graph import GraphStore

# validate_memory reads every record of a source; this only bounds a runaway query (memory_records.cypher has the
# same number as its cap when $exclude_stale).
MAX_SELECTION = 100_000
# A popular record may be the target of hundreds of relates_to links; a hit lists its strongest ones, so that
# one hub cannot push a whole answer past the response budget.
MAX_RELATIONS = 5


@dataclass(frozen=True)
class Selection:
    """Which records of a workspace to read, and how to score and filter them."""

    ids: Sequence[str] | None = None
    source_id: str | None = None
    scope: str | None = None
    words: Sequence[str] = ()
    with_fact_key: bool = False
    current_source_hash: str | None = None
    exclude_stale: bool = False
    limit: int = MAX_SELECTION
    team_repositories: Sequence[str] | None = None  # None: every record; else only these team repositories' files


@dataclass(frozen=True)
class NewRecord:
    """What a client saves; the service adds id, timestamps and the derived match texts."""

    content: str
    scope: str
    source: str
    source_id: str | None = None
    source_hash: str | None = None
    source_revision: str | None = None
    fact_key: str | None = None
    confidence: float = 0.5
    derived_from: Sequence[str] = field(default_factory=tuple)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class Found:
    """A selected record and the archivist's stale mark, which only validate_memory reports."""

    record: MemoryRecord
    stale_mark: str | None


def select(graph: GraphStore, project: str, workspace: str, selection: Selection) -> list[Found]:
    rows = graph.read(
        "memory_records",
        project=project,
        workspace=workspace,
        ids=list(selection.ids) if selection.ids is not None else None,
        source_id=selection.source_id,
        scope=selection.scope,
        words=list(selection.words),
        with_fact_key=selection.with_fact_key,
        text_queries=text_queries(project, workspace, selection.words, selection.with_fact_key),
        current_source_hash=selection.current_source_hash,
        exclude_stale=selection.exclude_stale,
        limit=selection.limit,
        max_relations=MAX_RELATIONS,
        team_prefix=TEAM_PACK_PREFIX,
        team_repositories=list(selection.team_repositories) if selection.team_repositories is not None else None,
    )
    found = {row["record"]["id"]: row["record"].get("stale_mark") for row in rows}
    return [Found(record, found[record.id]) for record in newest_versions_first([_record(row) for row in rows])]


def has_candidates(graph: GraphStore, project: str, workspace: str, words: Sequence[str], with_fact_key: bool) -> bool:
    """Whether some record of the workspace may hold one of ``words`` (False: none does)."""
    queries = text_queries(project, workspace, words, with_fact_key)
    return bool(graph.read("memory_text_candidates", text_queries=queries)[0]["found"])


def save(graph: GraphStore, project: str, project_active: bool, workspace: str, new: NewRecord) -> str:
    """Store a record (activating its workspace) and link it to the pack entity its source names."""
    (record_id,), steps = save_steps(project, project_active, workspace, [new])
    graph.write_together(steps)
    return record_id


def save_steps(
    project: str, project_active: bool, workspace: str, records: Sequence[NewRecord]
) -> tuple[list[str], list[tuple[str, dict[str, Any]]]]:
    """The new records' ids and the queries that save them, to run in one transaction (``save`` does that
    for one record; the memory benchmark seeds thousands per transaction with them)."""
    stamp = now_iso()
    rows = [_stored(project, workspace, new, stamp) for new in records]
    ids = [row["id"] for row in rows]
    steps: list[tuple[str, dict[str, Any]]] = [
        (
            "memory_save",
            {"project": project, "project_active": project_active, "workspace": workspace, "records": rows},
        ),
        ("memory_link_entities", {"project": project, "workspace": workspace, "ids": ids}),
    ]
    return ids, steps


def _stored(project: str, workspace: str, new: NewRecord, stamp: str) -> dict[str, Any]:
    """Every property a new record is stored with."""
    match_text, fact_text = fold(f"{new.content}\n{new.source}"), key_text(new.fact_key)
    return {
        "id": str(uuid.uuid4()),
        "project": project,
        "workspace": workspace,
        "scope": new.scope,
        "content": new.content,
        "source": new.source,
        "source_id": new.source_id,
        "source_hash": new.source_hash,
        "source_revision": new.source_revision,
        "fact_key": new.fact_key,
        "confidence": new.confidence,
        "derived_from": list(new.derived_from),
        "superseded_by": None,
        "created_at": stamp,
        "updated_at": stamp,
        "match_text": match_text,
        "fact_text": fact_text,
        "text_pieces": text_pieces(match_text, fact_text),
    }


def existing_ids(graph: GraphStore, project: str, workspace: str, ids: Sequence[str]) -> set[str]:
    rows = graph.read("memory_existing", project=project, workspace=workspace, ids=list(ids))
    return {str(row["id"]) for row in rows}


def newest_versions_first(records: list[MemoryRecord]) -> list[MemoryRecord]:
    """Keep the ranking, but give the slots held by versions of one fact key to its newest versions first."""
    slots: dict[str, list[int]] = {}
    for index, record in enumerate(records):
        if record.fact_key is not None:
            slots.setdefault(record.fact_key, []).append(index)
    ordered = list(records)
    for positions in slots.values():
        versions = sorted((records[i] for i in positions), key=lambda r: (r.created_at, r.id), reverse=True)
        for position, version in zip(positions, versions, strict=True):
            ordered[position] = version
    return ordered


def _record(row: dict[str, Any]) -> MemoryRecord:
    data = {key: value for key, value in row["record"].items() if key != "stale_mark"}
    data["derived_from"] = data.get("derived_from") or []
    relations = [GraphRelation(**{**link, "preview": preview(link["preview"])}) for link in row["graph_relations"]]
    return MemoryRecord(**data, status=row["status"], score=row["score"], graph_relations=relations)
