"""The vector engine of a Qdrant server (``QDRANT_URL``), through ``qdrant-client``: the collection ``entities``
laid out and searched as the embedded shard is (``graphrag.stores.edge``), so both engines give one answer."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from importlib import metadata
from typing import Any

from graphrag.embedding import Vectors
from graphrag.stores.edge import (
    COLLECTION,
    FULL_SCAN_KB,
    HNSW_EF_CONSTRUCT,
    HNSW_M,
    INDEXED_FIELDS,
    OVERSAMPLING,
    PAGE,
    QUANTILE,
    SEARCH_EF,
    Fields,
    Hit,
    Names,
    Offset,
    Row,
    changed,
    filters,
    missing,
    other_embedder,
    point_id,
)

SERVER_INDEXED_FIELDS = (*INDEXED_FIELDS, "id")  # a server is also read by entity id from outside
log = logging.getLogger(__name__)


class QdrantServer:
    """A Qdrant server (``QDRANT_URL``): the collection ``entities``, laid out as the Edge shard is (HNSW built
    from the same candidates, int8 in memory rescored on floats kept on disk, keyword indexes on ``pack``,
    ``kind`` and ``id``), and searched with the same candidate list, so both engines give the same answers."""

    def __init__(self, url: str, api_key: str | None, shards: int | None = None, replicas: int | None = None) -> None:
        from qdrant_client import QdrantClient

        # the client's own version check warns from a thread of its own, past our log: checked here instead
        self._client = QdrantClient(url=url, api_key=api_key, timeout=30, check_compatibility=False)
        self._check_version(url)
        self._shards = shards
        self._replicas = replicas
        self._made_with: str | None = None  # the collection's embedder, read once (a rebuild sets it anew)

    def _check_version(self, url: str) -> None:
        """One log line when the server is more than a minor version from the client (the pair is tested
        within one: docker-compose.yml). A server that does not answer, or refuses the key, is said by the first
        real call, as an unavailable store."""
        from qdrant_client.http.exceptions import ApiException

        try:
            server = self._client.info().version
        except (ApiException, OSError):
            return
        client = metadata.version("qdrant-client")
        if not _within_a_minor(server, client):
            log.warning(
                "vectors: the Qdrant server at %s runs %s, this client is %s: more than one minor version apart, "
                "some calls may fail",
                url,
                server,
                client,
            )

    def close(self) -> None:
        self._client.close()

    def ensure_collection(self, embedder_id: str, dimension: int, expect_points: bool, where: str) -> str | None:
        from qdrant_client import models

        reason = missing(where) if expect_points else None
        if self._client.collection_exists(COLLECTION):
            found = self._client.get_collection(COLLECTION)
            meta = found.config.metadata or {}
            if meta.get("embedder") == embedder_id and meta.get("dimension") == dimension:
                differing = layout_differences(found)
                if differing:
                    log.warning(
                        "vectors: the collection %r at %s is used as it is, though it differs from the layout a new "
                        "one gets: %s",
                        COLLECTION,
                        where,
                        "; ".join(differing),
                    )
                self._made_with = embedder_id
                return None
            reason = changed(meta, embedder_id, dimension)
            self._client.delete_collection(COLLECTION)
        self._made_with = embedder_id
        self._client.create_collection(
            COLLECTION,
            vectors_config=models.VectorParams(size=dimension, distance=models.Distance.COSINE, on_disk=True),
            hnsw_config=models.HnswConfigDiff(
                m=HNSW_M, ef_construct=HNSW_EF_CONSTRUCT, full_scan_threshold=FULL_SCAN_KB
            ),
            quantization_config=models.ScalarQuantization(
                scalar=models.ScalarQuantizationConfig(type=models.ScalarType.INT8, quantile=QUANTILE, always_ram=True)
            ),
            shard_number=self._shards,
            replication_factor=self._replicas,
            metadata={"embedder": embedder_id, "dimension": dimension},
        )
        for field in SERVER_INDEXED_FIELDS:
            self._client.create_payload_index(COLLECTION, field, models.PayloadSchemaType.KEYWORD, wait=True)
        return reason

    def upsert(self, payloads: Sequence[dict[str, Any]], vectors: Vectors) -> None:
        from qdrant_client import models

        ids = [point_id(p["id"]) for p in payloads]
        batch = models.Batch(ids=list(ids), vectors=vectors.tolist(), payloads=list(payloads))
        self._client.upsert(COLLECTION, points=batch, wait=True)

    def delete(self, entity_ids: Sequence[str]) -> None:
        from qdrant_client import models

        selector = models.PointIdsList(points=[point_id(i) for i in entity_ids])
        self._client.delete(COLLECTION, points_selector=selector, wait=True)

    def page(self, packs: Names, fields: Fields, with_vectors: bool, offset: Offset) -> tuple[list[Row], Offset]:
        from qdrant_client import models

        only = None if packs is None else models.Filter(must=[_condition_server("pack", packs)])
        points, offset = self._client.scroll(
            COLLECTION, scroll_filter=only, limit=PAGE, offset=offset, with_payload=fields, with_vectors=with_vectors
        )
        return [(point.payload or {}, point.vector) for point in points], offset

    def optimize(self) -> None:
        return None  # a Qdrant server optimizes by itself

    def count(self) -> int:
        if not self._client.collection_exists(COLLECTION):
            return 0
        return int(self._client.count(COLLECTION, exact=True).count)

    def embedder(self) -> str | None:
        if not self._client.collection_exists(COLLECTION):
            return None
        found = (self._client.get_collection(COLLECTION).config.metadata or {}).get("embedder")
        return str(found) if found is not None else None

    def search(
        self, vector: Vectors, limit: int, packs: Names, kinds: Names, embedder: str, ef: int | None = None
    ) -> list[Hit]:
        from qdrant_client import models

        if self._made_with != embedder:
            self._made_with = self.embedder()
            if self._made_with is None:  # no collection yet: nothing stored to find
                return []
            if self._made_with != embedder:
                raise other_embedder(self._made_with, embedder)
        must = [_condition_server(key, values) for key, values in filters(packs, kinds)]
        hits = self._client.query_points(
            COLLECTION,
            query=vector.tolist(),
            query_filter=models.Filter(must=must),
            search_params=models.SearchParams(
                hnsw_ef=max(ef or SEARCH_EF, limit),
                acorn=models.AcornSearchParams(enable=True) if must else None,
                quantization=models.QuantizationSearchParams(rescore=True, oversampling=OVERSAMPLING),
            ),
            limit=limit,
            with_payload=["id"],
        ).points
        return [(hit.payload or {}, float(hit.score)) for hit in hits]


def _within_a_minor(one: str, other: str) -> bool:
    """Same major version, minor versions at most one apart (``1.18.3`` and ``1.19.1``)."""
    try:
        (major, minor), (other_major, other_minor) = ([int(part) for part in v.split(".")[:2]] for v in (one, other))
    except ValueError:
        return False
    return major == other_major and abs(minor - other_minor) <= 1


def layout_differences(found: Any) -> list[str]:
    """How an existing server collection differs from the layout ``ensure_collection`` gives a new one."""
    config = found.config
    hnsw = config.hnsw_config
    scalar = getattr(config.quantization_config, "scalar", None)
    vectors = config.params.vectors
    differing = [
        f"{name} {have} (a new one: {want})"
        for name, have, want in (
            ("hnsw m", hnsw.m, HNSW_M),
            ("hnsw ef_construct", hnsw.ef_construct, HNSW_EF_CONSTRUCT),
            ("quantization", "int8" if scalar is not None else "none", "int8"),
            ("vectors on disk", bool(getattr(vectors, "on_disk", False)), True),
        )
        if have != want
    ]
    indexed = set(found.payload_schema or {})
    lacking = [field for field in SERVER_INDEXED_FIELDS if field not in indexed]
    if lacking:
        differing.append(f"no payload index on {', '.join(lacking)}")
    return differing


def _condition_server(key: str, values: Sequence[str]) -> Any:
    from qdrant_client import models

    return models.FieldCondition(key=key, match=models.MatchAny(any=list(values)))
