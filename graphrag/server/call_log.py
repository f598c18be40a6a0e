"""One log line per tool call, resource read and prompt: what was called, its outcome code and how long it
took (never arguments, ids or tokens).

The outermost middleware, so the outcome is what the client got: ``ok``, or the code its error starts
with (``forbidden`` and ``rate_limited`` from access included). With ``GRAPHRAG_LOG_FORMAT=json`` the
fields ``tool`` (for a resource, its template ``pack://{id}``; for a prompt, ``prompt:<name>``),
``outcome``, ``duration_ms`` and ``project`` (with a token) are keys of the line.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable
from typing import TypeVar

from fastmcp.exceptions import FastMCPError
from fastmcp.prompts import PromptResult
from fastmcp.resources import ResourceResult
from fastmcp.server.dependencies import get_access_token
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from mcp.types import CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams

from graphrag.errors import echo
from graphrag.server.access import caller_of
from graphrag.server.errors import code_of

R = TypeVar("R")
RESOURCE = "pack://{id}"  # reads are logged by template: the address holds an id
CATALOG = "packs://catalog"
log = logging.getLogger(__name__)


class CallLog(Middleware):
    async def on_call_tool(
        self, context: MiddlewareContext[CallToolRequestParams], call_next: CallNext[CallToolRequestParams, ToolResult]
    ) -> ToolResult:
        return await _logged(echo(context.message.name), call_next(context))

    async def on_read_resource(
        self,
        context: MiddlewareContext[ReadResourceRequestParams],
        call_next: CallNext[ReadResourceRequestParams, ResourceResult],
    ) -> ResourceResult:
        fixed = str(context.message.uri) == CATALOG
        return await _logged(CATALOG if fixed else RESOURCE, call_next(context))

    async def on_get_prompt(
        self,
        context: MiddlewareContext[GetPromptRequestParams],
        call_next: CallNext[GetPromptRequestParams, PromptResult],
    ) -> PromptResult:
        return await _logged(f"prompt:{echo(context.message.name)}", call_next(context))


async def _logged(what: str, call: Awaitable[R]) -> R:
    started = time.perf_counter()
    outcome = "cancelled"  # what is left when neither a result nor an exception comes back
    try:
        result = await call
        outcome = "ok"
        return result
    except FastMCPError as exc:
        outcome = code_of(str(exc)) or "internal"
        raise
    except Exception:
        outcome = "internal"
        raise
    finally:
        token = get_access_token()
        fields = {
            "tool": what,
            "outcome": outcome,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1),
            **({"project": caller_of(token).project} if token is not None else {}),
        }
        log.info("tool %(tool)s %(outcome)s in %(duration_ms)s ms", fields, extra=fields)
