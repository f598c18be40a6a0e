"""The stores: Neo4j (the graph) and Qdrant (the vectors), each behind a small class."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Store:
    """Opened by a class method, closed by ``close()`` or a ``with`` block."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object | TracebackType) -> None:
        self.close()
