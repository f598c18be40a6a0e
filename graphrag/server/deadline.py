"""Every tool call, resource read and prompt has a deadline: each Neo4j transaction it opens carries the
time left as its timeout (``graphrag.stores.graph.deadline``), so a call that asks too much answers
``unavailable`` in time, and one its client abandoned costs nothing after its deadline."""

from __future__ import annotations

from typing import Any

from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext

from graphrag.stores.graph import deadline


class CallDeadline(Middleware):
    def __init__(self, seconds: float) -> None:
        self._seconds = seconds

    async def on_request(self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any]) -> Any:
        with deadline(self._seconds):
            return await call_next(context)
