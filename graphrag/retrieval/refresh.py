"""One rule for the server's in-memory copy of the graph (names, links): read again when the graph
marker moves, checked at most every ``refresh_seconds``.

Every change of an ingest moves the marker (entity count, last ingest time, each pack's embedder), so a
moved marker means the copy is stale. One caller reloads while the others keep answering from the old
copy; only the very first load makes callers wait.

An ingest inside the server (``graphrag serve --watch``) knows what it wrote: it ``hold``s the copy while
it writes (no caller reloads it halfway), then ``patch``es it and marks it current, so an edit is
searchable without any reload.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from graphrag.stores.graph import GraphStore

T = TypeVar("T")


class MarkedCopy(Generic[T]):
    """``load()`` as of the current graph marker, kept until the marker moves."""

    def __init__(
        self,
        graph: GraphStore,
        load: Callable[[], T],
        refresh_seconds: float = 2.0,
    ) -> None:
        self._graph = graph
        self._load = load
        self._refresh_seconds = refresh_seconds
        self._copy: tuple[dict[str, Any], T] | None = None
        self._next_check = 0.0
        self._lock = threading.Lock()
        self._held = 0

    def current(self) -> T:
        copy = self._copy
        if copy is not None and (self._held or time.monotonic() < self._next_check):
            return copy[1]
        if not self._lock.acquire(blocking=copy is None):
            assert copy is not None
            return copy[1]
        try:
            self._next_check = time.monotonic() + self._refresh_seconds
            marker = self._graph.read("retrieval_marker")[0]
            if self._copy is None or self._copy[0] != marker:
                self._copy = (marker, self._load())
            return self._copy[1]
        finally:
            self._lock.release()

    def marker(self) -> dict[str, Any]:
        """The graph marker now (read before a write, to ``patch`` after it)."""
        found: dict[str, Any] = self._graph.read("retrieval_marker")[0]
        return found

    @contextmanager
    def hold(self) -> Iterator[None]:
        """While a write of this process runs: callers keep the copy as it is, without looking at the marker."""
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1

    def patch(self, change: Callable[[T], T], before: dict[str, Any]) -> None:
        """Apply this process's write to the copy now. ``before`` is the marker read before that write: if the
        copy was current then, it is current as of the marker now; if not (another writer moved the marker
        too), it keeps its old marker, so the next check reads it whole."""
        with self._lock:
            if self._copy is None:
                return
            marker, copy = self._copy
            now = self.marker()
            self._copy = (now if marker == before else marker, change(copy))
