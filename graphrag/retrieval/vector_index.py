"""Nearest entities to a query vector, with pack and kind filters, in both Qdrant modes.

Embedded Qdrant (local mode) checks filters in Python (about 120 ms per filtered query at 10k
points) and allows one open client per folder, even within a process: a server that kept it
open would also lock ``graphrag ingest`` out. So in embedded mode the server copies the
collection into a numpy matrix, closes Qdrant, and answers with an exact cosine scan and boolean
masks (well under a millisecond at 10k). The graph tells when to copy again: ingest writes
vectors before the graph, so a changed graph marker means the vectors changed; the marker is
read at most every ``refresh_seconds``. While an ingest holds the folder, the old copy keeps
answering. With ``QDRANT_URL`` the server is queried directly with the same filters.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from graphrag.config import Settings
from graphrag.embedding import Vectors
from graphrag.errors import StoreUnavailable
from graphrag.retrieval.refresh import MarkedCopy
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore, VectorUpdate


@dataclass(frozen=True)
class VectorHit:
    id: str
    score: float


class VectorIndex(Protocol):
    def search(
        self, vector: Vectors, limit: int, packs: Sequence[str] | None, kinds: Sequence[str] | None
    ) -> list[VectorHit]:
        """The ``limit`` nearest entities (cosine similarity, best first) in those packs and kinds (None: all)."""
        ...

    def hold(self) -> contextlib.AbstractContextManager[None]:
        """While this process writes the vectors: the index is left as it is (see ``refresh``)."""
        ...

    def apply(self, update: VectorUpdate, before: dict[str, Any]) -> None:
        """What this process just wrote; ``before`` is the graph marker read before the write."""
        ...

    def close(self) -> None: ...


class ServerIndex:
    """A Qdrant server (``QDRANT_URL``): filters run there, with payload indexes."""

    def __init__(self, store: VectorStore) -> None:
        self._store = store

    def search(
        self, vector: Vectors, limit: int, packs: Sequence[str] | None, kinds: Sequence[str] | None
    ) -> list[VectorHit]:
        return [
            VectorHit(str(payload["id"]), score) for payload, score in self._store.search(vector, limit, packs, kinds)
        ]

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        yield  # the server answers from what it holds, so a write is searchable as soon as it is made

    def apply(self, update: VectorUpdate, before: dict[str, Any]) -> None:
        return None

    def close(self) -> None:
        self._store.close()


@dataclass(frozen=True)
class _Mirror:
    embedder: str | None
    ids: npt.NDArray[np.str_]
    packs: npt.NDArray[np.str_]
    kinds: npt.NDArray[np.str_]
    matrix: Vectors


class MirrorIndex:
    """Embedded Qdrant, copied into memory and re-copied when the graph says an ingest changed it."""

    def __init__(self, settings: Settings, graph: GraphStore, embedder_id: str, refresh_seconds: float = 2.0) -> None:
        self._settings = settings
        self._embedder_id = embedder_id
        # While an ingest holds the folder, the old copy keeps answering.
        self._mirror = MarkedCopy(graph, self._load, keep_on=(StoreUnavailable,), refresh_seconds=refresh_seconds)

    def warm(self) -> None:
        """Copy the vectors now (at server start), unless an ingest holds the folder: then on first use."""
        with contextlib.suppress(StoreUnavailable):
            self._mirror.current()

    def search(
        self, vector: Vectors, limit: int, packs: Sequence[str] | None, kinds: Sequence[str] | None
    ) -> list[VectorHit]:
        mirror = self._mirror.current()
        if mirror.embedder is not None and mirror.embedder != self._embedder_id:
            raise StoreUnavailable(
                f"the vectors were made with {mirror.embedder} but the server embeds queries with "
                f"{self._embedder_id}: set GRAPHRAG_EMBEDDER to match, or run `graphrag ingest` again"
            )
        mask = np.ones(len(mirror.ids), dtype=bool)
        if packs is not None:
            mask &= np.isin(mirror.packs, list(packs))
        if kinds is not None:
            mask &= np.isin(mirror.kinds, list(kinds))
        rows = np.flatnonzero(mask)
        if not len(rows) or limit < 1:
            return []
        scores = (mirror.matrix @ vector)[rows]
        count = min(limit, len(rows))
        best = np.argpartition(-scores, count - 1)[:count]
        best = best[np.lexsort((mirror.ids[rows[best]], -scores[best]))]
        return [VectorHit(str(mirror.ids[rows[i]]), float(scores[i])) for i in best]

    def hold(self) -> contextlib.AbstractContextManager[None]:
        return self._mirror.hold()

    def apply(self, update: VectorUpdate, before: dict[str, Any]) -> None:
        """Rows of the written entities replaced or added, those of removed entities dropped: no Qdrant read."""
        if update.rebuilt:
            self._mirror.forget()  # another embedder: every vector is new, read them whole on the next call
            return
        self._mirror.patch(lambda mirror: _patched(mirror, update), before)

    def close(self) -> None:
        self._mirror.forget()

    def _load(self) -> _Mirror:
        with VectorStore.open(self._settings) as store:
            embedder, payloads, matrix = store.snapshot()
        norms = np.linalg.norm(matrix, axis=1, keepdims=True) if len(matrix) else np.ones((0, 1), np.float32)
        return _Mirror(
            embedder=embedder,
            ids=np.array([p["id"] for p in payloads], dtype=np.str_),
            packs=np.array([p["pack"] for p in payloads], dtype=np.str_),
            kinds=np.array([p["kind"] for p in payloads], dtype=np.str_),
            matrix=(matrix / np.maximum(norms, 1e-12)).astype(np.float32),
        )


def _patched(mirror: _Mirror, update: VectorUpdate) -> _Mirror:
    gone = {*update.removed, *(p["id"] for p in update.payloads)}
    keep = np.array([i not in gone for i in mirror.ids.tolist()], dtype=bool)
    rows = update.vectors / np.maximum(np.linalg.norm(update.vectors, axis=1, keepdims=True), 1e-12)
    matrix = mirror.matrix[keep] if len(mirror.matrix) else np.zeros((0, rows.shape[1]), dtype=np.float32)
    return _Mirror(
        embedder=mirror.embedder,
        ids=np.concatenate([mirror.ids[keep], np.array([p["id"] for p in update.payloads], dtype=np.str_)]),
        packs=np.concatenate([mirror.packs[keep], np.array([p["pack"] for p in update.payloads], dtype=np.str_)]),
        kinds=np.concatenate([mirror.kinds[keep], np.array([p["kind"] for p in update.payloads], dtype=np.str_)]),
        matrix=np.concatenate([matrix, rows.astype(np.float32)]),
    )


def open_vector_index(settings: Settings, graph: GraphStore, embedder_id: str) -> VectorIndex:
    if settings.qdrant_url:
        return ServerIndex(VectorStore.open(settings))
    index = MirrorIndex(settings, graph, embedder_id)
    index.warm()
    return index
