"""The vector side of an ingest: the collection opened only when vectors change, what a stopped run left in
it repaired, and, when the collection had to be rebuilt, the vectors of the packs the run does not ingest made
again from the graph."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from ingest.model import embedding_text
from ingest.phases import EMBED_BATCH, Progress, batches, timed
from ingest.plan import Stored
from ingest.report import IngestReport
from ingest.writing import VECTOR_PAYLOAD


@dataclass
class VectorsOnDemand:
    """Qdrant, opened only when vectors change: a no-change run never pays for loading it. Opening it may find
    the collection of another model, or none though the graph has entities: then every vector is rebuilt,
    and ``reindexed`` says why."""

    opened: ExitStack
    settings: Settings
    embedder: Embedder
    graph: GraphStore
    expect_points: bool
    store: VectorStore | None = None
    reindexed: str | None = None

    def lost(self) -> bool:
        """The graph holds entities but their vectors' collection is gone (a deleted folder, another Qdrant
        server): opening it rebuilds every vector."""
        return self.expect_points and not VectorStore.collection_exists(self.settings)

    def open(self) -> VectorStore:
        if self.store is None:
            self.store = self.opened.enter_context(VectorStore.open(self.settings))
            self.reindexed = self.store.ensure_collection(
                self.embedder.id, self.embedder.dimension, expect_points=self.expect_points
            )
            if self.reindexed:
                self.graph.write("ingest_forget_embedders")
        return self.store


@dataclass(frozen=True)
class Leftovers:
    """What a failed run can leave behind between writing vectors and committing the graph: vectors of
    entities the graph does not hold (``orphans``), and entities whose vector is not of their stored version."""

    orphans: list[str] = field(default_factory=list)
    reembed: set[str] = field(default_factory=set)


def unsettled_vectors(vectors: VectorsOnDemand, stored: Stored, timings: dict[str, float]) -> Leftovers:
    """A pack whose last run did not end (or that an older ingester wrote) may hold vectors the graph does not
    know: the first batch creates its node, the run's end writes ``vectors_pending: false``."""
    unsettled = [p for p in stored.pack_ids if (stored.packs.get(p) or {}).get("vectors_pending") is not False]
    if not unsettled:
        return Leftovers()
    store = vectors.open()
    with timed(timings, "qdrant"):
        found = store.fingerprints(unsettled)
    defined = stored.entities.keys() | {o["id"] for o in stored.others}
    return Leftovers(
        orphans=sorted(found.keys() - defined),
        reembed={s.id for s in stored.entities.values() if s.pack in unsettled and found.get(s.id) != s.sha256},
    )


def reembed_others(
    graph: GraphStore,
    vectors: VectorStore | None,
    embedder: Embedder,
    stored: Stored,
    report: IngestReport,
    progress: Progress,
    timings: dict[str, float],
) -> None:
    """Re-embed phase, after the vector collection was rebuilt: the packs this run does not ingest lost their
    vectors too, so they are made again from what the graph holds of each entity (its title, summary and
    payload), without reading its files or changing the graph, and each pack records its embedder again."""
    others = [o["id"] for o in stored.others]
    if vectors is None or not others:
        return
    for done, ids in batches(others, EMBED_BATCH):
        with timed(timings, "neo4j_read"):
            rows = graph.read("ingest_vector_sources", ids=ids)
        with timed(timings, "embed"):
            matrix = embedder.embed([embedding_text(row["title"], row["summary"]) for row in rows])
        with timed(timings, "qdrant"):
            vectors.upsert([{name: row[name] for name in VECTOR_PAYLOAD} for row in rows], matrix)
            vectors.optimize()
        report.embedded += len(rows)
        progress("embed", done, len(others))
    with timed(timings, "neo4j_write"):
        graph.write("ingest_settle_embedder", packs=sorted({o["pack"] for o in stored.others}), embedder=embedder.id)
