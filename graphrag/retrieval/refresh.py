"""One rule for the server's in-memory copies of the stores (the vectors, the graph): read again when
the graph marker moves, checked at most every ``refresh_seconds``.

Ingest writes vectors before the graph and every change moves the marker (entity count, last ingest
time, each pack's embedder), so a moved marker means the copy is stale. One caller reloads while the
others keep answering from the old copy; only the very first load makes callers wait.

An ingest inside the server (``graphrag serve --watch``) knows what it wrote: it ``hold``s the copies
while it writes (no caller reloads them halfway, nor opens the embedded Qdrant folder the ingest holds),
then ``patch``es them and marks them current, so an edit is searchable without any reload.
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
    """``load()`` as of the current graph marker, kept until the marker moves. A reload that fails with
    one of ``keep_on`` (its source is busy) keeps the old copy and looks again on the next call."""

    def __init__(
        self,
        graph: GraphStore,
        load: Callable[[], T],
        keep_on: tuple[type[Exception], ...] = (),
        refresh_seconds: float = 2.0,
    ) -> None:
        self._graph = graph
        self._load = load
        self._keep_on = keep_on
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
                try:
                    self._copy = (marker, self._load())
                except self._keep_on:
                    if self._copy is None:
                        raise
                    self._next_check = 0.0
            return self._copy[1]
        finally:
            self._lock.release()

    def forget(self) -> None:
        self._copy = None

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
