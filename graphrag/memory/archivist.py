"""The archivist: links between records and stale marks, derived only from the records and the packs.

Rules (deterministic; no language model):
- ``supersedes``: within a fact key, each version points to the one just before it (by creation time, then
  id), weight 1.0, and the older one's ``superseded_by`` names the newer.
- ``fixes_issue``: a record that reports a fix (``FIX_MARKERS``) points to an older record that reports a
  problem (``ISSUE_MARKERS``, and no fix marker) when their cosine similarity is at least ``FIXES_MIN_COSINE``.
- ``relates_to``: a record points to an older record whose content has cosine similarity at least
  ``RELATES_MIN_COSINE``; weight = the cosine, rounded to 3 places.
  A record keeps at most ``MAX_LINKS`` of these two kinds, strongest first (ties by id); versions of one fact
  key are linked only by ``supersedes``.
- stale mark ``entity_changed``: the record's ``source_id`` names a pack entity and its ``source_hash``
  (``sha256:<hex prefix>`` or bare hex, 7+ digits) is not a prefix of that entity's current sha256.

It runs after each save (candidates from the vector index, scored exactly) and on demand over a whole
workspace (exact all-pairs), and both give the same links for the same records.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphrag.embedding import Embedder, Vectors
from graphrag.memory.model import ArchivistRun
from graphrag.names import fold
from graphrag.stores.graph import GraphStore

RELATES_MIN_COSINE = 0.40
FIXES_MIN_COSINE = 0.50
MAX_LINKS = 5
NEIGHBOURS_K = 100
BLOCK = 1024
ENTITY_CHANGED = "entity_changed"
ISSUE_MARKERS = (
    "bug", "issue", "error", "fail", "crash", "broken", "incident", "regression",
    "ошибк", "баг", "проблем", "сбой", "падает", "упал", "не работает",
    "问题", "错误", "故障", "崩溃", "失败",
)  # fmt: skip
FIX_MARKERS = (
    "fix", "resolved", "workaround", "patched",
    "исправ", "починил", "решен", "обход",
    "修复", "解决", "已修",
)  # fmt: skip
_HEX = re.compile(r"[0-9a-f]{7,64}")


@dataclass(frozen=True)
class Item:
    """A record as the archivist sees it."""

    id: str
    fact_key: str | None
    content: str
    created_at: str
    source_hash: str | None = None
    stale_mark: str | None = None
    entity_hashes: tuple[str, ...] = ()

    @property
    def age(self) -> tuple[str, str]:
        return (self.created_at, self.id)

    @property
    def is_fix(self) -> bool:
        return _has(self, FIX_MARKERS)

    @property
    def is_issue(self) -> bool:
        return _has(self, ISSUE_MARKERS) and not self.is_fix


@dataclass(frozen=True)
class Link:
    source: str
    target: str
    type: str
    weight: float


def similarity_links(item: Item, candidates: Sequence[tuple[float, Item]]) -> list[Link]:
    """``fixes_issue`` and ``relates_to`` from ``item`` to older, differently keyed candidates."""
    links: list[Link] = []
    for cosine, other in sorted(candidates, key=lambda c: (-c[0], c[1].id)):
        if other.age >= item.age or (item.fact_key is not None and other.fact_key == item.fact_key):
            continue
        if item.is_fix and other.is_issue and cosine >= FIXES_MIN_COSINE:
            kind = "FIXES_ISSUE"
        elif cosine >= RELATES_MIN_COSINE:
            kind = "RELATES_TO"
        else:
            continue
        links.append(Link(item.id, other.id, kind, round(min(cosine, 1.0), 3)))
        if len(links) == MAX_LINKS:
            break
    return links


def version_links(items: Sequence[Item]) -> tuple[list[Link], dict[str, str | None]]:
    """The ``supersedes`` chain of every fact key, and each record's ``superseded_by``."""
    by_key: dict[str, list[Item]] = {}
    for item in items:
        if item.fact_key is not None:
            by_key.setdefault(item.fact_key, []).append(item)
    links: list[Link] = []
    newer: dict[str, str | None] = {item.id: None for item in items}
    for versions in by_key.values():
        versions.sort(key=lambda i: i.age)
        for older, newest in itertools.pairwise(versions):
            links.append(Link(newest.id, older.id, "SUPERSEDES", 1.0))
            newer[older.id] = newest.id
    return links, newer


def stale_mark(item: Item) -> str | None:
    """The archivist's own mark is set or cleared; a mark with another reason (validate_memory) stays."""
    if _entity_changed(item):
        return ENTITY_CHANGED
    return None if item.stale_mark == ENTITY_CHANGED else item.stale_mark


class Archivist:
    def __init__(self, graph: GraphStore, embedder: Embedder) -> None:
        self._graph = graph
        self._embedder = embedder

    def after_save(self, project: str, workspace: str, record_id: str) -> None:
        """Embed the new record, link it to older ones, and re-chain the versions of its fact key."""
        item, _ = self._read(project, workspace, ids=[record_id])[0]
        vector = self._embedder.embed([item.content])[0]
        rows = self._graph.read(
            "memory_archivist_neighbours", project=project, workspace=workspace, vector=vector.tolist(), k=NEIGHBOURS_K
        )
        candidates = [
            (float(np.dot(vector, np.asarray(row["embedding"], dtype=np.float32))), _item(row))
            for row in rows
            if row["id"] != item.id and row["embedding_model"] == self._embedder.id
        ]
        versions = [i for i, _ in self._read(project, workspace, fact_key=item.fact_key)] if item.fact_key else [item]
        chain, newer = version_links(versions)
        ids = [v.id for v in versions]
        self._graph.write_together(
            [
                (
                    "memory_set_embeddings",
                    {"rows": [{"id": item.id, "embedding": vector.tolist()}], "model": self._embedder.id},
                ),
                ("memory_clear_links", {"ids": ids, "types": ["SUPERSEDES"]}),
                ("memory_write_links", {"rows": _rows([*chain, *similarity_links(item, candidates)])}),
                ("memory_set_marks", {"rows": _marks(versions, newer)}),
            ]
        )

    def run(self, project: str, workspace: str) -> ArchivistRun:
        """Rebuild every link and mark of a workspace from scratch (exact similarities)."""
        self._graph.write("memory_link_entities", project=project, workspace=workspace, ids=None)
        read = self._read(project, workspace)
        items = [item for item, _ in read]
        stale_vectors = [i for i, (item, vector) in enumerate(read) if vector is None]
        matrix = self._matrix(read, stale_vectors)
        links, newer = version_links(items)
        for index, candidates in _older_neighbours(items, matrix):
            links.extend(similarity_links(items[index], candidates))
        marks = _marks(items, newer)
        self._graph.write_together(
            [
                (
                    "memory_clear_links",
                    {"ids": [i.id for i in items], "types": ["RELATES_TO", "FIXES_ISSUE", "SUPERSEDES"]},
                ),
                ("memory_write_links", {"rows": _rows(links)}),
                ("memory_set_marks", {"rows": marks}),
            ]
        )
        count = {
            kind: sum(1 for link in links if link.type == kind) for kind in ("SUPERSEDES", "RELATES_TO", "FIXES_ISSUE")
        }
        return ArchivistRun(
            workspace=workspace,
            records=len(items),
            embedded=len(stale_vectors),
            supersedes=count["SUPERSEDES"],
            relates_to=count["RELATES_TO"],
            fixes_issue=count["FIXES_ISSUE"],
            stale=sum(1 for mark in marks if mark["stale_mark"] is not None),
        )

    def _read(
        self, project: str, workspace: str, ids: list[str] | None = None, fact_key: str | None = None
    ) -> list[tuple[Item, Vectors | None]]:
        """Items oldest first, each with its stored vector when the current embedder made it."""
        rows = self._graph.read(
            "memory_archivist_records", project=project, workspace=workspace, ids=ids, fact_key=fact_key
        )
        return [
            (
                _item(row),
                np.asarray(row["embedding"], dtype=np.float32)
                if row["embedding"] is not None and row["embedding_model"] == self._embedder.id
                else None,
            )
            for row in rows
        ]

    def _matrix(self, read: list[tuple[Item, Vectors | None]], missing: list[int]) -> Vectors:
        """All vectors of the workspace, embedding (and storing) those missing or made by another model."""
        fresh = self._embedder.embed([read[i][0].content for i in missing])
        if missing:
            rows = [{"id": read[i][0].id, "embedding": fresh[n].tolist()} for n, i in enumerate(missing)]
            self._graph.write("memory_set_embeddings", rows=rows, model=self._embedder.id)
        matrix = np.zeros((len(read), self._embedder.dimension), dtype=np.float32)
        for i, (_, vector) in enumerate(read):
            if vector is not None:
                matrix[i] = vector
        for n, i in enumerate(missing):
            matrix[i] = fresh[n]
        return matrix


def _older_neighbours(items: Sequence[Item], matrix: Vectors) -> Iterator[tuple[int, list[tuple[float, Item]]]]:
    """For each item (oldest first), the older items similar enough to be linked, in blocks of rows."""
    least = min(RELATES_MIN_COSINE, FIXES_MIN_COSINE)
    for start in range(0, len(items), BLOCK):
        block = matrix[start : start + BLOCK] @ matrix.T
        for offset, row in enumerate(block):
            index = start + offset
            close = np.nonzero(row[:index] >= least)[0]
            yield index, [(float(row[j]), items[int(j)]) for j in close]


def _item(row: dict[str, Any]) -> Item:
    return Item(
        id=row["id"],
        fact_key=row.get("fact_key"),
        content=row["content"],
        created_at=row["created_at"],
        source_hash=row.get("source_hash"),
        stale_mark=row.get("stale_mark"),
        entity_hashes=tuple(row.get("entity_hashes") or ()),
    )


def _rows(links: Sequence[Link]) -> list[dict[str, Any]]:
    return [{"source": k.source, "target": k.target, "type": k.type, "weight": k.weight} for k in links]


def _marks(items: Sequence[Item], newer: dict[str, str | None]) -> list[dict[str, Any]]:
    return [{"id": i.id, "superseded_by": newer.get(i.id), "stale_mark": stale_mark(i)} for i in items]


def _has(item: Item, markers: Sequence[str]) -> bool:
    text = fold(f"{item.fact_key or ''} {item.content}")
    return any(marker in text for marker in markers)


def _entity_changed(item: Item) -> bool:
    if not item.entity_hashes or not item.source_hash:
        return False
    algorithm, _, digest = item.source_hash.lower().rpartition(":")
    if algorithm not in ("", "sha256") or not _HEX.fullmatch(digest):
        return False  # another algorithm, or not a digest: nothing to compare with the pack's sha256
    return not any(h.lower().startswith(digest) for h in item.entity_hashes)
