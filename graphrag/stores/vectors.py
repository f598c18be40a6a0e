"""The vectors: one point per entity, embedded summaries, payload ``{id, pack, kind, title, path, sha256}``.

Two engines behind one class. Unset ``QDRANT_URL``: a Qdrant Edge shard under ``GRAPHRAG_HOME/qdrant-edge``,
shared between processes through the one that holds it (``graphrag.stores.edge_owner``). Set: a Qdrant server
through ``qdrant-client``, with the same calls. The embedder's id and dimension are kept beside the vectors
(a file for Edge, the collection's metadata on a server), so vectors of two models are never mixed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Self

import numpy as np
from tenacity import retry, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from graphrag.config import Settings
from graphrag.embedding import Vectors
from graphrag.errors import StoreUnavailable
from graphrag.stores import Store
from graphrag.stores.edge import Hit, Names, Offset, shard_exists
from graphrag.stores.edge_owner import Owner, OwnerGone, dispatch, reach, release
from graphrag.stores.server_engine import QdrantServer


def _is_transient(exc: BaseException) -> bool:
    """Network hiccups of a Qdrant server, or an Edge shard changing hands; anything else surfaces at once."""
    from qdrant_client.http.exceptions import ResponseHandlingException

    return isinstance(exc, ResponseHandlingException | ConnectionError | TimeoutError | EOFError)


_retry_transient = retry(
    retry=retry_if_exception(_is_transient),
    stop=stop_after_attempt(4),
    wait=wait_exponential_jitter(max=4),
    reraise=True,
)


class VectorStore(Store):
    """The entities' vectors, in whichever engine the settings name (see the module's docstring)."""

    def __init__(self, folder: Path | None, engine: QdrantServer | None, where: str) -> None:
        self._folder = folder  # an Edge shard's folder; None for a Qdrant server
        self._server = engine
        self._edge: Owner | Connection | None = None
        self._calling = threading.Lock()  # one call at a time on a connection to the owner
        self.where = where

    @classmethod
    def open(cls, settings: Settings) -> Self:
        if settings.qdrant_url:
            api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
            server = QdrantServer(settings.qdrant_url, api_key, settings.qdrant_shards, settings.qdrant_replicas)
            return cls(None, server, settings.qdrant_url)
        store = cls(settings.qdrant_path, None, str(settings.qdrant_path))
        store._edge = store._find()
        return store

    @classmethod
    def collection_exists(cls, settings: Settings) -> bool:
        """Whether the vectors are there at all, asked without loading an embedded shard: an ingest that
        changes nothing asks it, so a lost collection is rebuilt rather than left missing under the graph."""
        if not settings.qdrant_url:
            return shard_exists(settings.qdrant_path)
        with cls.open(settings) as store:
            return store._call("embedder") is not None

    def _find(self) -> Owner | Connection:
        assert self._folder is not None
        try:
            return reach(self._folder)
        except OwnerGone as exc:
            raise StoreUnavailable(
                f"embedded Qdrant at {self._folder} is in use by another process that does not share it (a "
                "`graphrag ingest` of an older release?): wait for it or stop it, or run a Qdrant server and set "
                "QDRANT_URL"
            ) from exc
        except PermissionError as exc:  # a read-only folder: nothing was written, the graph is untouched
            raise StoreUnavailable(
                f"the vector shard in {self._folder} cannot be opened: {exc.strerror} ({exc.filename}); "
                "let this user write that folder, or set GRAPHRAG_HOME to one it can"
            ) from exc

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
        edge, self._edge = self._edge, None
        if isinstance(edge, Owner):
            release(edge)
        elif edge is not None:
            edge.close()

    @_retry_transient
    def _call(self, name: str, *args: Any) -> Any:
        if self._server is not None:
            return dispatch(self._server, self.where, name, args)
        with self._calling:
            if self._edge is None:  # the owner went away on the last call: take the shard or find its new owner
                self._edge = self._find()
            edge = self._edge
            if not isinstance(edge, Owner):
                try:
                    edge.send((name, args))
                    outcome, value = edge.recv()
                except (EOFError, OSError) as exc:
                    edge.close()
                    self._edge = None
                    raise OwnerGone(f"the process holding {self._folder} closed it") from exc
        if isinstance(edge, Owner):  # searches of this process run side by side
            return dispatch(edge.engine, self.where, name, args)
        if outcome == "error":
            raise value
        return value

    def ensure_collection(self, embedder_id: str, dimension: int, expect_points: bool = False) -> str | None:
        """Make the collection for this embedder; if it was made by another (or is missing while the graph
        says vectors exist), rebuild it and say why."""
        reason: str | None = self._call("ensure_collection", embedder_id, dimension, expect_points)
        return reason

    def upsert(self, payloads: Sequence[dict[str, Any]], vectors: Vectors) -> None:
        self._call("upsert", list(payloads), vectors)

    def optimize(self) -> None:
        """After a run's writes: build the index of what they added (Edge runs its optimizer when asked)."""
        self._call("optimize")

    def delete(self, entity_ids: Sequence[str]) -> None:
        if entity_ids:
            self._call("delete", list(entity_ids))

    def payloads(self) -> dict[str, dict[str, Any]]:
        """Every point's payload by entity id (tests and consistency checks)."""
        found: dict[str, dict[str, Any]] = self._call("payloads")
        return found

    def count(self) -> int:
        """How many vectors the store holds."""
        return int(self._call("count"))

    def fingerprints(self, packs: Sequence[str]) -> dict[str, str]:
        """The content hash each point of these packs was embedded from, by entity id."""
        found: dict[str, str] = self._call("fingerprints", list(packs))
        return found

    def embedder(self) -> str | None:
        """The id of the model the stored vectors were made with (None: no collection)."""
        found: str | None = self._call("embedder")
        return found

    def pages(self) -> Iterator[tuple[list[dict[str, Any]], Vectors]]:
        """Every point with its vector, a page at a time (payloads and their vectors' matrix)."""
        offset: Offset = None
        while True:
            rows, offset = self._call("page", None, True, True, offset)
            if rows:
                yield [payload for payload, _ in rows], np.asarray([vector for _, vector in rows], np.float32)
            if offset is None:
                return

    def snapshot(self) -> tuple[str | None, list[dict[str, Any]], Vectors]:
        """Every point at once (embedder id, payloads, vectors): tests and consistency checks."""
        payloads: list[dict[str, Any]] = []
        matrices: list[Vectors] = []
        for page, vectors in self.pages():
            payloads += page
            matrices.append(vectors)
        # a collection with no point yet (every file of its packs was rejected) has no dimension to show
        matrix = np.vstack(matrices) if matrices else np.zeros((0, 0), np.float32)
        return self.embedder(), payloads, matrix

    def search(
        self, vector: Vectors, limit: int, packs: Names, kinds: Names, embedder: str, ef: int | None = None
    ) -> list[Hit]:
        """Nearest points by cosine similarity in the given packs and kinds (None: all), best first; ``ef``: HNSW's
        candidate list (None: the engine's own). Vectors made by another embedder than ``embedder`` (the queries')
        are refused."""
        hits: list[Hit] = self._call("search", vector, limit, packs, kinds, embedder, ef)
        return hits
