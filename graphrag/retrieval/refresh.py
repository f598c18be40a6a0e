"""One rule for the server's in-memory copies of the stores (the vectors, the graph): read again when
the graph marker moves, checked at most every ``refresh_seconds``.

Ingest writes vectors before the graph and every change moves the marker (entity count, last ingest
time, each pack's embedder), so a moved marker means the copy is stale. One caller reloads while the
others keep answering from the old copy; only the very first load makes callers wait.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
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

    def current(self) -> T:
        copy = self._copy
        if copy is not None and time.monotonic() < self._next_check:
            return copy[1]
        if not self._lock.acquire(blocking=copy is None):
            assert copy is not None
            return copy[1]
        try:
            self._next_check = time.monotonic() + self._refresh_seconds
            marker = self._graph.read("search_marker")[0]
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
