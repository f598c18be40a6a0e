"""One error root for the whole service; every error carries a stable code.

The codes are the ones MCP clients see at the start of a tool error message (DESIGN 4),
so the CLI, the ingester and the server can all turn a failure into one clear line.
"""

from __future__ import annotations

from typing import Literal

ErrorCode = Literal[
    "not_found",
    "invalid_argument",
    "workspace_inactive",
    "forbidden",
    "rate_limited",
    "response_too_large",
    "unavailable",
    "document_changed",
    "internal",
]


class GraphRagError(Exception):
    """Base of every error the service raises on purpose."""

    code: ErrorCode = "internal"

    def __init__(self, message: str, *, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"{self.code}: {self.args[0]}"


class StoreUnavailable(GraphRagError):
    """A store (Neo4j, Qdrant) cannot be reached; the message says how to start it."""

    code: ErrorCode = "unavailable"


class InvalidArgument(GraphRagError):
    code: ErrorCode = "invalid_argument"


class NotFound(GraphRagError):
    code: ErrorCode = "not_found"
