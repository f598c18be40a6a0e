"""One error root for the whole service; every error carries a stable code.

The codes are the ones MCP clients see at the start of a tool error message (docs/mcp.md, Errors),
so the CLI, the ingester and the server can all turn a failure into one clear line.
A message that repeats what the caller sent uses ``echo`` and ``name_list``, so that an error stays
small whatever the input (a 100 kB id must not come back as a 100 kB error).
"""

from __future__ import annotations

from collections.abc import Iterable
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
    "conflict",
    "internal",
]
ECHO_CHARS = 200  # the most characters of one input an error message repeats
NAMES_SHOWN = 30  # the most names an error message lists; the rest are counted


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


class ResponseTooLarge(GraphRagError):
    """An answer that does not fit the response budget and has nothing left to shorten; the message says how
    to read it in pages, when it can be."""

    code: ErrorCode = "response_too_large"


class DocumentChanged(GraphRagError):
    """What a paged read was reading changed between two pages: the client drops its pages and starts again."""

    code: ErrorCode = "document_changed"


def echo(value: str) -> str:
    """``value`` as an error message may repeat it: its first ``ECHO_CHARS`` characters, then ``…``."""
    return value if len(value) <= ECHO_CHARS else value[:ECHO_CHARS] + "…"


def name_list(names: Iterable[str], separator: str = ", ") -> str:
    """``a, b, c`` for a short list; a long one shows its first ``NAMES_SHOWN`` and counts the rest."""
    listed = list(names)
    shown = separator.join(echo(name) for name in listed[:NAMES_SHOWN])
    hidden = len(listed) - NAMES_SHOWN
    return f"{shown}{separator}and {hidden} more" if hidden > 0 else shown
