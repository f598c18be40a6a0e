"""``graphrag serve --watch``: packs ingested inside the server, and its in-memory copies (the vector mirror,
the graph snapshot) brought up to date by that ingest itself, not by the next marker check.

Out of process, an edit reaches search in three steps: the watcher's ingest (about 1 s, most of it loading
the model and connecting), the server's next marker check (up to 2 s), then a reload of every vector. Here
the ingest reuses the server's model and Neo4j driver, and hands over the vectors it wrote, which replace
their rows in the mirror; the graph snapshot is read again once, after the vectors are in place. Searches
meanwhile answer from the copies as they were (``hold``), so none of them reloads halfway or opens the
Qdrant folder the ingest holds.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from graphrag.stores.vectors import VectorUpdate

if TYPE_CHECKING:  # Services holds this process's LiveIndex
    from graphrag.server.context import Services

R = TypeVar("R")
Write = Callable[[Callable[[VectorUpdate], None]], R]  # an ingest, given where to send its vector changes
log = logging.getLogger(__name__)


class LiveIndex:
    """Runs this process's writes one at a time and applies each to the server's copies when it ends."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self._lock = threading.Lock()

    def write(self, work: Write[R]) -> R:
        found = self._services
        with self._lock:
            before = found.graph.read("search_marker")[0]
            updates: list[VectorUpdate] = []
            with found.snapshot.hold():
                with found.vectors.hold():
                    result = work(updates.append)
                    for update in updates:
                        found.vectors.apply(update, before)
                # searchable from here: Neo4j and the vectors hold the edit; the names and links the
                # retrievers link and walk with follow a read later (0.1 to 0.3 s at 1,000 entities)
                found.snapshot.reload(before)
            return result


Background = Callable[["Services", threading.Event], None]  # runs beside the server until the event is set
