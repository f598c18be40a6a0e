"""One log line per tool call: the tool, its outcome code and how long it took (never arguments or tokens).

The outermost middleware, so the outcome is what the client got: ``ok``, or the code its error starts
with (``forbidden`` and ``rate_limited`` from access included). With ``GRAPHRAG_LOG_FORMAT=json`` the
fields ``tool``, ``outcome``, ``duration_ms`` and ``project`` (with a token) are keys of the line.
"""

from __future__ import annotations

import logging
import time

from fastmcp.exceptions import ToolError
from fastmcp.server.dependencies import get_access_token
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from mcp.types import CallToolRequestParams

from graphrag.errors import echo
from graphrag.server.access import caller_of
from graphrag.server.errors import code_of

log = logging.getLogger(__name__)


class CallLog(Middleware):
    async def on_call_tool(
        self, context: MiddlewareContext[CallToolRequestParams], call_next: CallNext[CallToolRequestParams, ToolResult]
    ) -> ToolResult:
        started = time.perf_counter()
        outcome = "cancelled"  # what is left when neither a result nor an exception comes back
        try:
            result = await call_next(context)
            outcome = "ok"
            return result
        except ToolError as exc:
            outcome = code_of(str(exc)) or "internal"
            raise
        except Exception:
            outcome = "internal"
            raise
        finally:
            token = get_access_token()
            fields = {
                "tool": echo(context.message.name),
                "outcome": outcome,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                **({"project": caller_of(token).project} if token is not None else {}),
            }
            log.info("tool %(tool)s %(outcome)s in %(duration_ms)s ms", fields, extra=fields)
