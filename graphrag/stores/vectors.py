"""Qdrant: one point per entity, embedded summaries, payload ``{id, pack, kind, title, path, sha256}``.

Embedded local mode (a folder under ``GRAPHRAG_HOME``) by default; ``QDRANT_URL`` switches
to a server with the same calls. The embedder's id and dimension live in the collection's
metadata, so vectors of two models are never mixed.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from tenacity import (
    retry,
    retry_if_exception,
    retry_if_exception_type,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential_jitter,
    wait_fixed,
)

from graphrag.config import Settings
from graphrag.embedding import Vectors
from graphrag.errors import StoreUnavailable
from graphrag.stores import Store

COLLECTION = "entities"
LOCK_WAIT_SECONDS = 3.0
_POINT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "pack-graphrag/entity")


@dataclass(frozen=True)
class VectorUpdate:
    """What one ingest wrote to the collection, so a server in the same process (``graphrag serve --watch``)
    can apply it to its in-memory copy at once instead of reading every point again."""

    payloads: list[dict[str, Any]]
    vectors: Vectors  # one row per payload
    removed: list[str]  # entity ids
    rebuilt: bool = False  # every vector was made again (another embedder): a copy must be read whole


def point_id(entity_id: str) -> str:
    """Stable point id of an entity (Qdrant accepts only integers and UUIDs)."""
    return str(uuid.uuid5(_POINT_NAMESPACE, entity_id))


def _is_transient(exc: BaseException) -> bool:
    """Network hiccups of a Qdrant server; everything else (bad request, lock) surfaces at once."""
    from qdrant_client.http.exceptions import ResponseHandlingException

    return isinstance(exc, ResponseHandlingException | ConnectionError | TimeoutError)


_retry_transient = retry(
    retry=retry_if_exception(_is_transient),
    stop=stop_after_attempt(4),
    wait=wait_exponential_jitter(max=4),
    reraise=True,
)


@retry(
    retry=retry_if_exception_type(RuntimeError),
    stop=stop_after_delay(LOCK_WAIT_SECONDS),
    wait=wait_fixed(0.2),
    reraise=True,
)
def _open_local(client_class: Any, path: str) -> Any:
    """Embedded Qdrant allows one client per folder. `graphrag serve` holds it only for the moment it
    copies the vectors into memory, so a short wait is a retry of a transient lock, not of a failure."""
    return client_class(path=path)


class VectorStore(Store):
    def __init__(self, client: Any, where: str) -> None:
        self._client = client
        self.where = where

    @classmethod
    def open(cls, settings: Settings) -> Self:
        from qdrant_client import QdrantClient

        if settings.qdrant_url:
            api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
            return cls(QdrantClient(url=settings.qdrant_url, api_key=api_key, timeout=30), settings.qdrant_url)
        path = settings.qdrant_path
        path.mkdir(parents=True, exist_ok=True)
        try:
            client = _open_local(QdrantClient, str(path))
        except RuntimeError as exc:
            raise StoreUnavailable(
                f"embedded Qdrant at {path} is in use by another process (a running `graphrag ingest` or "
                "`graphrag watch`?): wait for it or stop it, or run a Qdrant server and set QDRANT_URL"
            ) from exc
        store = cls(client, str(path))
        store._tune_local_storage()
        return store

    def _tune_local_storage(self) -> None:
        """Embedded mode commits one SQLite transaction per point, each with an fsync (about 2 ms: 20 s
        for 10,000 points). Write-ahead logging with ``synchronous=NORMAL`` keeps every commit safe
        against a crash of this process and makes the same upsert about 5x faster; a power cut can lose
        the last commits, which the next ingest cannot see. Reaches into the client's storage objects,
        so it does nothing (only slower) if a qdrant-client release changes them."""
        collections = getattr(getattr(self._client, "_client", None), "collections", None)
        for collection in (collections or {}).values():
            connection = getattr(getattr(collection, "storage", None), "storage", None)
            if isinstance(connection, sqlite3.Connection):
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=NORMAL")

    def close(self) -> None:
        self._client.close()

    @_retry_transient
    def ensure_collection(self, embedder_id: str, dimension: int, expect_points: bool = False) -> str | None:
        """Create the collection for this embedder; if it was made by another (or is missing while the
        graph says vectors exist), rebuild it and say why."""
        from qdrant_client import models

        reason = (
            f"the vector collection was missing at {self.where}: every vector is rebuilt" if expect_points else None
        )
        if self._client.collection_exists(COLLECTION):
            meta = self._client.get_collection(COLLECTION).config.metadata or {}
            if meta.get("embedder") == embedder_id and meta.get("dimension") == dimension:
                return None
            reason = (
                f"embedding model changed from {meta.get('embedder')} ({meta.get('dimension')}-d) "
                f"to {embedder_id} ({dimension}-d): every vector is rebuilt"
            )
            self._client.delete_collection(COLLECTION)
        self._client.create_collection(
            COLLECTION,
            vectors_config=models.VectorParams(size=dimension, distance=models.Distance.COSINE),
            metadata={"embedder": embedder_id, "dimension": dimension},
        )
        self._tune_local_storage()
        for field in ("pack", "kind", "id"):
            if self.where.startswith("http"):  # payload indexes are a no-op (with a warning) in local mode
                self._client.create_payload_index(COLLECTION, field, models.PayloadSchemaType.KEYWORD)
        return reason

    @_retry_transient
    def upsert(self, payloads: Sequence[dict[str, Any]], vectors: Vectors) -> None:
        from qdrant_client import models

        self._client.upsert(
            COLLECTION,
            points=models.Batch(
                ids=[point_id(p["id"]) for p in payloads],
                vectors=vectors.tolist(),
                payloads=list(payloads),
            ),
            wait=True,
        )

    @_retry_transient
    def delete(self, entity_ids: Sequence[str]) -> None:
        from qdrant_client import models

        if entity_ids:
            self._client.delete(
                COLLECTION, points_selector=models.PointIdsList(points=[point_id(i) for i in entity_ids]), wait=True
            )

    @_retry_transient
    def payloads(self) -> dict[str, dict[str, Any]]:
        """Every point's payload by entity id (tests and consistency checks)."""
        out: dict[str, dict[str, Any]] = {}
        offset = None
        while True:
            points, offset = self._client.scroll(COLLECTION, limit=1000, offset=offset, with_payload=True)
            for point in points:
                out[point.payload["id"]] = point.payload
            if offset is None:
                return out

    @_retry_transient
    def fingerprints(self, packs: Sequence[str]) -> dict[str, str]:
        """The content hash each point of these packs was embedded from, by entity id."""
        from qdrant_client import models

        only = models.Filter(must=[models.FieldCondition(key="pack", match=models.MatchAny(any=list(packs)))])
        out: dict[str, str] = {}
        offset = None
        while True:
            points, offset = self._client.scroll(
                COLLECTION, scroll_filter=only, limit=1000, offset=offset, with_payload=["id", "sha256"]
            )
            out.update((point.payload["id"], point.payload["sha256"]) for point in points)
            if offset is None:
                return out

    # --- reads for the MCP server (added by the server engineer, issue 3) ---

    @_retry_transient
    def snapshot(self) -> tuple[str | None, list[dict[str, Any]], Vectors]:
        """Every point at once (embedder id, payloads, vectors): the server mirrors embedded mode in memory."""
        import numpy as np

        if not self._client.collection_exists(COLLECTION):
            return None, [], np.zeros((0, 0), dtype=np.float32)
        embedder = (self._client.get_collection(COLLECTION).config.metadata or {}).get("embedder")
        payloads: list[dict[str, Any]] = []
        rows: list[list[float]] = []
        offset = None
        while True:
            points, offset = self._client.scroll(
                COLLECTION, limit=1000, offset=offset, with_payload=True, with_vectors=True
            )
            payloads += [point.payload for point in points]
            rows += [point.vector for point in points]
            if offset is None:
                if not rows:  # a collection with no point yet (every file of its packs was rejected)
                    return embedder, [], np.zeros((0, 0), dtype=np.float32)
                return embedder, payloads, np.asarray(rows, dtype=np.float32).reshape(len(rows), -1)

    @_retry_transient
    def search(
        self, vector: Vectors, limit: int, packs: Sequence[str] | None, kinds: Sequence[str] | None
    ) -> list[tuple[dict[str, Any], float]]:
        """Nearest points by cosine similarity, keeping only the given packs and kinds (None: all)."""
        from qdrant_client import models

        must = [
            models.FieldCondition(key=key, match=models.MatchAny(any=list(values)))
            for key, values in (("pack", packs), ("kind", kinds))
            if values is not None
        ]
        hits = self._client.query_points(
            COLLECTION, query=vector.tolist(), query_filter=models.Filter(must=must), limit=limit, with_payload=True
        ).points
        return [(hit.payload, float(hit.score)) for hit in hits]
