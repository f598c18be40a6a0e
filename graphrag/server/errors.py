"""Every tool error reaches the client as a message that starts with a stable code (DESIGN 4).

The service's own errors carry their code; a store that stops answering mid-call becomes
``unavailable``; bad arguments become ``invalid_argument``. Anything else is a bug, and the
server masks it (``mask_error_details``) instead of leaking internals.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from fastmcp.exceptions import ToolError, ValidationError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from mcp.types import CallToolRequestParams
from neo4j.exceptions import ServiceUnavailable, SessionExpired
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from graphrag.errors import GraphRagError

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def tool_errors() -> Iterator[None]:
    """Turn the service's errors into tool errors with their code (usable in async tools too)."""
    try:
        yield
    except GraphRagError as exc:
        raise ToolError(str(exc)) from exc
    except (ServiceUnavailable, SessionExpired) as exc:
        detail = " ".join(str(exc).split())
        raise ToolError(
            f"unavailable: Neo4j stopped answering ({detail}); start it with `graphrag neo4j start` and retry"
        ) from exc
    except (ResponseHandlingException, UnexpectedResponse) as exc:
        detail = " ".join(str(exc).split())
        raise ToolError(f"unavailable: the Qdrant server stopped answering ({detail}); check QDRANT_URL") from exc


def coded(fn: Callable[P, R]) -> Callable[P, R]:
    """A sync tool function whose errors start with their code."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with tool_errors():
            return fn(*args, **kwargs)

    return wrapper


class InvalidArgumentsMiddleware(Middleware):
    """Arguments that fail the input schema answer ``invalid_argument: ...`` like every other error."""

    async def on_call_tool(
        self, context: MiddlewareContext[CallToolRequestParams], call_next: CallNext[CallToolRequestParams, ToolResult]
    ) -> ToolResult:
        try:
            return await call_next(context)
        except ValidationError as exc:
            detail = " ".join(str(exc).split())
            raise ToolError(f"invalid_argument: {detail}") from exc
