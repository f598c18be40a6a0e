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
from typing import TYPE_CHECKING

from graphrag.stores.vectors import VectorUpdate
from ingest.report import IngestReport

if TYPE_CHECKING:  # Services holds this process's LiveIndex
    from graphrag.server.context import Services

Write = Callable[[Callable[[VectorUpdate], None]], IngestReport]  # an ingest, given where to send its vectors
log = logging.getLogger(__name__)


class LiveIndex:
    """Runs this process's writes one at a time and applies each to the server's copies when it ends."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self._lock = threading.Lock()

    def write(self, work: Write) -> IngestReport:
        found = self._services
        with self._lock:
            before = found.graph.read("search_marker")[0]
            updates: list[VectorUpdate] = []
            with found.snapshot.hold():
                with found.vectors.hold():
                    report = work(updates.append)
                    for update in updates:
                        found.vectors.apply(update, before)
                # searchable from here: Neo4j and the vectors hold the edit; the names and links the
                # retrievers link and walk with follow two small reads later
                found.snapshot.patch([*report.added, *report.updated, *report.removed], before)
            return report


Background = Callable[["Services", threading.Event], None]  # runs beside the server until the event is set
