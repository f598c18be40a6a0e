"""``graphrag eval record``: turn this service's search results into an arm of the contract.

Pure: the caller runs the queries (through the MCP tool) and hands over what each hit's entity
says; this module decides what a source, a chunk and a snapshot are. A source is one entity's
embedded text (``"{title}. {summary}"``), a chunk is that whole source, and the snapshot id is a
hash of every stored entity's content hash, so two arms recorded on one ingest share it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from graphrag.errors import InvalidArgument
from graphrag.evaluation.contract import Answer, Arm, ArmConfig, Corpus, Hit, Run, Source
from graphrag.evaluation.spans import utf16_length

EMBEDDER_KEY = "embedder"
RETRIEVAL_MODE_KEY = "retrievalMode"
SEARCH_CONFIG_KEY = "searchConfig"


class RecordQuery(BaseModel):
    """One line of the query file: ``{"queryId": "q1", "text": "..."}``."""

    model_config = ConfigDict(extra="ignore", alias_generator=to_camel, populate_by_name=True)

    query_id: str = Field(min_length=1)
    text: str = Field(min_length=1)


class QueryFile(BaseModel):
    """A list of queries, or any object with a ``queries`` list (an EvaluationInput file works)."""

    model_config = ConfigDict(extra="ignore")

    queries: list[RecordQuery] = Field(min_length=1)


@dataclass(frozen=True)
class FoundEntity:
    id: str
    title: str
    summary: str

    @property
    def text(self) -> str:
        return f"{self.title}. {self.summary}" if self.summary else self.title


def with_reranker(config: dict[str, Any], key: str, value: str) -> dict[str, Any]:
    """The config with ``reranker.<key>`` set: the contract has no retriever section, and the reranker's
    is the ranking stage, so arms recorded with different modes or search configurations differ in that
    key alone."""
    return {**config, "reranker": {**config.get("reranker", {}), key: value}}


def snapshot_id(content_hashes: Iterable[tuple[str, str]]) -> str:
    """The same set of (entity id, sha256) pairs always gives the same id."""
    digest = hashlib.sha256()
    for entity_id, sha in sorted(content_hashes):
        digest.update(f"{entity_id}\0{sha}\n".encode())
    return f"packs-{digest.hexdigest()[:16]}"


def build_arm(
    label: str,
    config: dict[str, Any],
    embedder_id: str,
    snapshot: str,
    results: Sequence[tuple[RecordQuery, Sequence[FoundEntity]]],
    recorded_at: datetime | None = None,
) -> tuple[Arm, Corpus]:
    """The arm (ranked hits per query, no generated answer) and the corpus sources its hits name.

    Answers are left empty on purpose: this records retrieval only, and an empty answer fails the
    answer barrier rather than passing it. Fill ``runs[].answer`` from your generation step.
    """
    models = {**config.get("models", {}), EMBEDDER_KEY: embedder_id}
    arm_config = ArmConfig.model_validate({**config, "models": models}, strict=False)
    sources: dict[str, Source] = {}
    runs = []
    for query, found in results:
        hits = []
        for entity in found:
            sources.setdefault(entity.id, Source(source_id=entity.id, snapshot_id=snapshot, text=entity.text))
            hits.append(Hit(chunk_id=entity.id, source_id=entity.id, start=0, end=utf16_length(entity.text)))
        runs.append(Run(query_id=query.query_id, hits=hits, answer=Answer(text="", claims=[])))
    arm = Arm(
        label=label,
        recorded_at=recorded_at or datetime.now(UTC),
        corpus_snapshot_id=snapshot,
        config=arm_config,
        runs=runs,
    )
    if not sources:
        raise InvalidArgument(f"no query found anything in snapshot {snapshot}: nothing to record")
    return arm, Corpus(snapshot_id=snapshot, sources=list(sources.values()))
