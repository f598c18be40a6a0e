"""The embedded vector engine: a Qdrant Edge shard under ``GRAPHRAG_HOME/qdrant-edge``.

The shard is Qdrant's own engine in this process: HNSW, keyword payload indexes on ``pack`` and ``kind``,
filters in the engine. Its embedder's id and dimension are kept beside it (``embedder.json``).

How processes share the shard: ``graphrag.stores.edge_owner``.
"""

from __future__ import annotations

import json
import logging
import shutil
import threading
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from graphrag.embedding import Vectors
from graphrag.errors import StoreUnavailable

COLLECTION = "entities"
LOCK_WAIT_SECONDS = 3.0
MIGRATED_SUFFIX = ".migrated-to-edge"
INDEXED_FIELDS = ("pack", "kind")
# HNSW's candidate list per query, on a shard built as below: at a million stored vectors 256 found .979 of
# the exact top 10, 512 .994 and 1024 .998 (engine p50 2.0, 1.5, 2.3 ms); with a filter (packs, kinds: ACORN
# also walks the filter's neighbours' neighbours) .997, .999 and 1.000 (6.3, 10.4, 18.7 ms). 512: at a
# million the vector list's CPU is what Neo4j's full-text query waits for on two cores (docs/scaling.md).
SEARCH_EF = 512
# A graph built from Edge's default of 100 candidates (a shard made before) needs more: at 100,000 such
# vectors 512 found .992 and 1024 .9993, at a million .957 and .987 (bench/vector_recall.py).
OLDER_BUILD_SEARCH_EF = 1024
# How a new shard builds its HNSW graph: each point keeps 16 neighbours (Edge's default) chosen from 512
# candidates (Edge's default is 100). At a million stored vectors, built with 100 some points were unreachable,
# and a few queries found none of their exact top 10 at any search ef: recall@10 .9877 without a filter and
# .9974 with one. Built with 512: .9993 and .9999, for an index built in 731 s instead of 171 s (m 32 and
# 256: .9979 and 1.0000 in 523 s, and twice the links in memory). bench/vector_recall.py.
HNSW_M = 16
HNSW_EF_CONSTRUCT = 512
EDGE_EF_CONSTRUCT = 100  # Edge's own default, which a shard made before HNSW_EF_CONSTRUCT was built with
FULL_SCAN_KB = 10_000  # Edge's default: a segment smaller than this is searched exactly, not through HNSW
# How many times the asked number of best candidates an int8 shard (``_shard_config``) scores again on the
# floats. Measured in bench/vector_recall.py (see docs/scaling.md).
OVERSAMPLING = 2.0
QUANTILE = 0.99  # the int8 range covers this share of the values; the rest are clipped to its ends
_POINT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "pack-graphrag/entity")
PAGE = 1000
log = logging.getLogger(__name__)

Hit = tuple[dict[str, Any], float]
Names = Sequence[str] | None  # packs or kinds to keep (None: all)
Fields = list[str] | bool  # the payload fields a scroll returns (True: all)
Row = tuple[dict[str, Any], Any]  # a point's payload and its vector (None unless asked for)
Offset = Any  # where the next page of a scroll starts (an engine's point id; None: the first page, or no more)


class Engine(Protocol):
    """What both engines do (this module's shard, and a Qdrant server in ``graphrag.stores.vectors``)."""

    def ensure_collection(self, embedder_id: str, dimension: int, expect_points: bool, where: str) -> str | None: ...
    def upsert(self, payloads: Sequence[dict[str, Any]], vectors: Vectors) -> None: ...
    def optimize(self) -> None: ...
    def delete(self, entity_ids: Sequence[str]) -> None: ...
    def page(self, packs: Names, fields: Fields, with_vectors: bool, offset: Offset) -> tuple[list[Row], Offset]: ...
    def embedder(self) -> str | None: ...
    def count(self) -> int: ...
    def search(
        self, vector: Vectors, limit: int, packs: Names, kinds: Names, embedder: str, ef: int | None = None
    ) -> list[Hit]: ...
    def close(self) -> None: ...


def scroll(engine: Engine, packs: Names, fields: Fields, with_vectors: bool) -> list[Row]:
    """Every point of these packs, page by page."""
    rows, offset = engine.page(packs, fields, with_vectors, None)
    while offset is not None:
        more, offset = engine.page(packs, fields, with_vectors, offset)
        rows += more
    return rows


def point_id(entity_id: str) -> str:
    """Stable point id of an entity (Qdrant accepts only integers and UUIDs)."""
    return str(uuid.uuid5(_POINT_NAMESPACE, entity_id))


def filters(packs: Sequence[str] | None, kinds: Sequence[str] | None) -> list[tuple[str, Sequence[str]]]:
    return [(key, values) for key, values in (("pack", packs), ("kind", kinds)) if values is not None]


def damaged(folder: Path, exc: Exception) -> StoreUnavailable:
    """One line for a shard that cannot be opened: the engine's reason (it names the file) and how to rebuild."""
    reason = " ".join(str(exc).split())[:300]
    return StoreUnavailable(
        f"the vector shard in {folder} cannot be opened ({reason}); rebuild it: move that folder aside "
        "and run `graphrag ingest` on your packs (the graph keeps every entity)"
    )


def missing(where: str) -> str:
    return f"the vector collection was missing at {where}: every vector is rebuilt"


def other_embedder(made_with: str | None, queries: str) -> StoreUnavailable:
    """Queries embedded by another model than the vectors': their scores would mean nothing."""
    return StoreUnavailable(
        f"the vectors were made with {made_with} but the server embeds queries with "
        f"{queries}: set GRAPHRAG_EMBEDDER to match, or run `graphrag ingest` again"
    )


def changed(meta: dict[str, Any], embedder_id: str, dimension: int) -> str:
    return (
        f"embedding model changed from {meta.get('embedder')} ({meta.get('dimension')}-d) "
        f"to {embedder_id} ({dimension}-d): every vector is rebuilt"
    )


class EdgeEngine:
    """A Qdrant Edge shard in ``folder/shard``, its embedder in ``folder/embedder.json``. Only the owner
    process (see the module's docstring) makes one."""

    def __init__(self, folder: Path) -> None:
        from qdrant_edge import EdgeShard

        self._folder = folder
        self._write = threading.Lock()  # a rebuild swaps the shard: no write meanwhile
        try:
            self._meta = _read_meta(folder)
            self._shard: EdgeShard | None = EdgeShard.load(str(self._path)) if self._meta else None
        except Exception as exc:  # Edge raises plain Exceptions: a damaged WAL, segment or config file
            raise damaged(folder, exc) from exc
        self._search_ef = search_ef(self._path)

    @property
    def _path(self) -> Path:
        return self._folder / "shard"

    def close(self) -> None:
        with self._write:
            if self._shard is not None:
                self._shard.close()
                self._shard = None

    def ensure_collection(self, embedder_id: str, dimension: int, expect_points: bool, where: str) -> str | None:
        from qdrant_edge import EdgeShard, PayloadSchemaType, UpdateOperation

        with self._write:
            meta = self._meta
            if meta and meta.get("embedder") == embedder_id and meta.get("dimension") == dimension:
                return None
            reason = changed(meta, embedder_id, dimension) if meta else missing(where) if expect_points else None
            if self._shard is not None:
                self._shard.close()
                self._shard = None
            if self._path.is_file() or self._path.is_symlink():  # no shard: a file in its place
                self._path.unlink()
            shutil.rmtree(self._path, ignore_errors=True)
            shard = EdgeShard.create(str(self._path), _shard_config(dimension))
            for field in INDEXED_FIELDS:
                shard.update(UpdateOperation.create_field_index(field, PayloadSchemaType.Keyword))
            shard.flush()
            self._meta = {"embedder": embedder_id, "dimension": dimension}
            _write_meta(self._folder, self._meta)
            self._shard = shard
            self._search_ef = search_ef(self._path)
            return reason

    def upsert(self, payloads: Sequence[dict[str, Any]], vectors: Vectors) -> None:
        from qdrant_edge import Point, UpdateOperation

        points = [Point(point_id(p["id"]), row, dict(p)) for p, row in zip(payloads, vectors.tolist(), strict=True)]
        with self._write:
            shard = self._opened()
            shard.update(UpdateOperation.upsert_points(points))
            shard.flush()

    def optimize(self) -> None:
        """Index what grew past the optimizer's threshold (HNSW, merged segments); nothing on a small shard.
        Searches go on meanwhile, on the segments as they were."""
        with self._write:
            if self._shard is not None:
                self._shard.optimize()
                self._shard.flush()

    def delete(self, entity_ids: Sequence[str]) -> None:
        from qdrant_edge import UpdateOperation

        with self._write:
            shard = self._opened()
            shard.update(UpdateOperation.delete_points([point_id(i) for i in entity_ids]))
            shard.flush()

    def count(self) -> int:
        """The points the shard holds (0 without a shard)."""
        return int(self._shard.info().points_count) if self._shard is not None else 0

    def page(self, packs: Names, fields: Fields, with_vectors: bool, offset: Offset) -> tuple[list[Row], Offset]:
        from qdrant_edge import Filter, ScrollRequest

        if self._shard is None:
            return [], None
        only = None if packs is None else Filter(must=[_condition_edge("pack", packs)])
        request = ScrollRequest(offset=offset, limit=PAGE, filter=only, with_payload=fields, with_vector=with_vectors)
        records, offset = self._shard.scroll(request)
        return [(record.payload or {}, record.vector) for record in records], offset

    def embedder(self) -> str | None:
        return None if self._meta is None else str(self._meta.get("embedder"))

    def search(
        self, vector: Vectors, limit: int, packs: Names, kinds: Names, embedder: str, ef: int | None = None
    ) -> list[Hit]:
        from qdrant_edge import AcornSearchParams, Filter, QuantizationSearchParams, Query, QueryRequest, SearchParams

        if self._shard is None or limit < 1:
            return []
        if self.embedder() != embedder:
            raise other_embedder(self.embedder(), embedder)
        must = [_condition_edge(key, values) for key, values in filters(packs, kinds)]
        request = QueryRequest(
            limit=limit,
            query=Query.Nearest(vector.tolist()),
            filter=Filter(must=must),
            with_payload=["id"],
            params=SearchParams(
                hnsw_ef=max(ef or self._search_ef, limit),
                acorn=AcornSearchParams(enable=True) if must else None,
                quantization=QuantizationSearchParams(rescore=True, oversampling=OVERSAMPLING),
            ),
        )
        return [(hit.payload or {}, float(hit.score)) for hit in self._shard.query(request)]

    def _opened(self) -> Any:
        if self._shard is None:
            raise StoreUnavailable(f"no vector collection at {self._folder}: run `graphrag ingest` first")
        return self._shard


def _shard_config(dimension: int) -> Any:
    """A new shard's settings: the float vectors on disk, and in memory their int8 copy (a quarter of the
    size), which HNSW walks; the best candidates are scored again on the floats (``OVERSAMPLING``). The graph
    is built as ``HNSW_EF_CONSTRUCT`` says. A shard made before keeps its own settings."""
    from qdrant_edge import (
        Distance,
        EdgeConfig,
        EdgeVectorParams,
        HnswIndexConfig,
        Memory,
        ScalarQuantizationConfig,
        ScalarType,
    )

    return EdgeConfig(
        vectors=EdgeVectorParams(dimension, Distance.Cosine, memory=Memory.Cold),
        quantization_config=ScalarQuantizationConfig(ScalarType.Int8, quantile=QUANTILE, memory=Memory.Pinned),
        hnsw_config=HnswIndexConfig(m=HNSW_M, ef_construct=HNSW_EF_CONSTRUCT, full_scan_threshold=FULL_SCAN_KB),
    )


def search_ef(shard: Path) -> int:
    """The candidate list a shard's graph needs, from the candidates Edge recorded building it with: a graph
    built from fewer than ``HNSW_EF_CONSTRUCT`` (Edge's default, 100, in a shard made before) needs more."""
    try:
        config = json.loads((shard / "edge_config.json").read_text(encoding="utf-8"))
        built_from = int(config["hnsw_config"]["ef_construct"])
    except (OSError, ValueError, KeyError, TypeError):
        built_from = EDGE_EF_CONSTRUCT
    return SEARCH_EF if built_from >= HNSW_EF_CONSTRUCT else OLDER_BUILD_SEARCH_EF


def _condition_edge(key: str, values: Sequence[str]) -> Any:
    from qdrant_edge import FieldCondition, MatchAny

    return FieldCondition(key=key, match=MatchAny(any=list(values)))


def shard_exists(folder: Path) -> bool:
    """Whether a shard is there, read from its files without loading it."""
    return _read_meta(folder) is not None


def _read_meta(folder: Path) -> dict[str, Any] | None:
    try:
        found = json.loads((folder / "embedder.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except ValueError as exc:
        raise damaged(folder, ValueError(f"embedder.json: {exc}")) from exc
    return found if isinstance(found, dict) and (folder / "shard").is_dir() else None


def _write_meta(folder: Path, meta: dict[str, Any]) -> None:
    staged = folder / "embedder.json.tmp"
    staged.write_text(json.dumps(meta), encoding="utf-8")
    staged.replace(folder / "embedder.json")


def migrate_local_mode(folder: Path) -> None:
    """Copy the former embedded engine's collection (``qdrant-client`` local mode, a sibling ``qdrant``
    folder) into a new Edge shard, once; the old folder is renamed, kept until its owner deletes it."""
    old = folder.parent / "qdrant"
    if shard_exists(folder) or not (old / "collection" / COLLECTION).is_dir():
        return
    from qdrant_client import QdrantClient

    try:
        client = QdrantClient(path=str(old))
    except RuntimeError as exc:
        raise StoreUnavailable(
            f"the former embedded Qdrant at {old} is in use by another process: stop it, then retry (its vectors "
            "move into the new engine once)"
        ) from exc
    try:
        meta = client.get_collection(COLLECTION).config.metadata or {}
        engine = EdgeEngine(folder)
        reason = engine.ensure_collection(str(meta.get("embedder")), int(meta.get("dimension", 0)), False, str(folder))
        assert reason is None
        offset = None
        moved = 0
        while True:
            points, offset = client.scroll(COLLECTION, limit=PAGE, offset=offset, with_payload=True, with_vectors=True)
            if points:
                engine.upsert(
                    [point.payload or {} for point in points], np.asarray([p.vector for p in points], np.float32)
                )
                moved += len(points)
            if offset is None:
                break
        engine.optimize()
        engine.close()
    except BaseException:
        shutil.rmtree(folder / "shard", ignore_errors=True)
        (folder / "embedder.json").unlink(missing_ok=True)
        raise
    finally:
        client.close()
    kept = old.with_name(old.name + MIGRATED_SUFFIX)
    old.rename(kept)
    log.warning(
        "vectors: moved %d vectors from %s into the Qdrant Edge shard at %s; the old folder is kept as %s",
        moved,
        old,
        folder,
        kept,
    )
