"""Nearest entities to a query vector, with pack and kind filters, in the vector engine itself.

Both engines filter and rank where the vectors live: the embedded Qdrant Edge shard (HNSW and keyword
payload indexes on ``pack`` and ``kind``) or a Qdrant server (``QDRANT_URL``). The server keeps no copy
of the vectors: a write of ``graphrag ingest`` in another process reaches the shard through the process
that holds it (see ``graphrag.stores.vectors``), and one of ``graphrag serve --watch`` is written by the
server itself, so every change is searchable as soon as it is written, with no reload.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphrag.config import Settings
from graphrag.embedding import Vectors
from graphrag.stores.vectors import VectorStore


@dataclass(frozen=True)
class VectorHit:
    id: str
    score: float


class VectorIndex:
    """The vector store, held open for the server's life, asked with the embedder of the queries."""

    def __init__(self, store: VectorStore, embedder_id: str) -> None:
        self._store = store
        self._embedder_id = embedder_id

    def search(
        self,
        vector: Vectors,
        limit: int,
        packs: Sequence[str] | None,
        kinds: Sequence[str] | None,
        ef: int | None = None,
    ) -> list[VectorHit]:
        """The ``limit`` nearest entities (cosine similarity, best first) in those packs and kinds (None: all);
        ``ef``: HNSW's candidate list (None: the engine's own)."""
        if limit < 1:
            return []
        found = self._store.search(vector, limit, packs, kinds, self._embedder_id, ef)
        return [VectorHit(str(payload["id"]), score) for payload, score in found]

    def count(self) -> int:
        """How many vectors the store holds."""
        return self._store.count()

    def close(self) -> None:
        self._store.close()


def open_vector_index(settings: Settings, embedder_id: str) -> VectorIndex:
    return VectorIndex(VectorStore.open(settings), embedder_id)
