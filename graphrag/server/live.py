"""``graphrag serve --watch``: packs ingested inside the server, and its in-memory graph snapshot brought up
to date by that ingest itself, not by the next marker check.

Out of process, an edit reaches search in two steps: the watcher's ingest (about 1 s, most of it loading
the model and connecting), then the server's next marker check (up to 2 s). Here the ingest reuses the
server's model, Neo4j driver and vector shard (its writes are in the engine the server searches, at once);
the graph snapshot is patched where the ingest wrote or removed entities (their rows, neighbours and links
read again, not the whole graph). Searches meanwhile answer from the snapshot as it was (``hold``), so
none of them reloads it halfway.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.stores.graph import GraphStore
from ingest.report import IngestReport

Write = Callable[[], IngestReport]  # an ingest
log = logging.getLogger(__name__)


class LiveIndex:
    """Runs this process's writes one at a time and applies each to the server's graph snapshot when it ends."""

    def __init__(self, graph: GraphStore, snapshot: GraphSnapshot) -> None:
        self._graph = graph
        self._snapshot = snapshot
        self._lock = threading.Lock()

    def write(self, work: Write) -> IngestReport:
        with self._lock:
            before = self._graph.read("retrieval_marker")[0]
            with self._snapshot.hold():
                report = work()
                # searchable from here: Neo4j and the vectors hold the edit; the names and links the
                # retrievers link and walk with follow two small reads later
                self._snapshot.patch([*report.added, *report.updated, *report.removed], before)
            return report
