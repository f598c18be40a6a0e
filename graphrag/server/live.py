"""``graphrag serve --watch``: packs ingested inside the server, and its in-memory copies (the vector mirror,
the graph snapshot) brought up to date by that ingest itself, not by the next marker check.

Out of process, an edit reaches search in three steps: the watcher's ingest (about 1 s, most of it loading
the model and connecting), the server's next marker check (up to 2 s), then a reload of every vector. Here
the ingest reuses the server's model and Neo4j driver, and hands over the vectors it wrote, which replace
their rows in the mirror; the graph snapshot is patched where the ingest wrote or removed entities (their
rows, neighbours and links read again, not the whole graph), after the vectors are in place. Searches
meanwhile answer from the copies as they were (``hold``), so none of them reloads halfway or opens the
Qdrant folder the ingest holds.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.retrieval.vector_index import VectorIndex
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorUpdate
from ingest.report import IngestReport

Write = Callable[[Callable[[VectorUpdate], None]], IngestReport]  # an ingest, given where to send its vectors
log = logging.getLogger(__name__)


class LiveIndex:
    """Runs this process's writes one at a time and applies each to the server's copies when it ends."""

    def __init__(self, graph: GraphStore, snapshot: GraphSnapshot, vectors: VectorIndex) -> None:
        self._graph = graph
        self._snapshot = snapshot
        self._vectors = vectors
        self._lock = threading.Lock()

    def write(self, work: Write) -> IngestReport:
        with self._lock:
            before = self._graph.read("retrieval_marker")[0]
            updates: list[VectorUpdate] = []
            with self._snapshot.hold():
                with self._vectors.hold():
                    report = work(updates.append)
                    for update in updates:
                        self._vectors.apply(update, before)
                # searchable from here: Neo4j and the vectors hold the edit; the names and links the
                # retrievers link and walk with follow two small reads later
                self._snapshot.patch([*report.added, *report.updated, *report.removed], before)
            return report
