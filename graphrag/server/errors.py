"""Every tool error reaches the client as a small message that starts with a stable code (docs/mcp.md, Errors).

The service's own errors carry their code; a store that stops answering mid-call becomes
``unavailable`` (the driver's text, which names hosts, goes to the server log only); arguments that fail
the input schema or hold a lone surrogate become ``invalid_argument``. Anything else is a bug: fastmcp
masks it (``mask_error_details``), and ``ToolErrors`` logs its traceback and answers ``internal``.
No message is longer than the smallest response budget allows, whatever the caller sent.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar, cast, get_args

from fastmcp.exceptions import FastMCPError, NotFoundError, PromptError, ResourceError, ToolError, ValidationError
from fastmcp.prompts import PromptResult
from fastmcp.resources import ResourceResult
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from mcp.types import CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams
from pydantic import ValidationError as PydanticValidationError

from graphrag.config import MIN_BUDGET_BYTES
from graphrag.errors import ErrorCode, GraphRagError, echo, name_list
from graphrag.fitting import ENVELOPE_BYTES
from graphrag.stores import answering

LIST_HINT_CHARS = 80  # a longer scalar is not repeated in the hint that it should be a list
P = ParamSpec("P")
R = TypeVar("R")
CODES = frozenset(get_args(ErrorCode))
ERROR_BYTES = MIN_BUDGET_BYTES - ENVELOPE_BYTES  # the most bytes of a message, as JSON text
_SURROGATE = re.compile("[\ud800-\udfff]")
log = logging.getLogger(__name__)


@contextmanager
def _errors_as(error: type[FastMCPError]) -> Iterator[None]:
    try:
        with answering():
            yield
    except GraphRagError as exc:
        raise error(str(exc)) from exc


def _coded_as(fn: Callable[P, R], error: type[FastMCPError]) -> Callable[P, R]:
    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with _errors_as(error):
            return fn(*args, **kwargs)

    return wrapper


def coded(fn: Callable[P, R]) -> Callable[P, R]:
    """A tool whose errors start with their code: the service's errors carry it, a store that stops
    answering becomes ``unavailable``. Raised as tool errors inside the call, they reach the client
    without fastmcp logging a traceback for an expected refusal. Every tool, resource and prompt is
    written this one way (``resource_coded``, ``prompt_coded``)."""
    return _coded_as(fn, ToolError)


def resource_coded(fn: Callable[P, R]) -> Callable[P, R]:
    """A resource read whose errors start with their code (as ``coded``)."""
    return _coded_as(fn, ResourceError)


def prompt_coded(fn: Callable[P, R]) -> Callable[P, R]:
    """A prompt whose errors start with their code (as ``coded``)."""
    return _coded_as(fn, PromptError)


def code_of(message: str) -> ErrorCode | None:
    """The stable code a tool error message starts with, if it starts with one."""
    head = message.split(":", 1)[0]
    return cast(ErrorCode, head) if head in CODES else None


class ToolErrors(Middleware):
    """Coded, bounded errors for every tool call, whatever fails and whatever the arguments hold."""

    async def on_call_tool(
        self, context: MiddlewareContext[CallToolRequestParams], call_next: CallNext[CallToolRequestParams, ToolResult]
    ) -> ToolResult:
        _refuse_surrogates(context.message.arguments, ToolError)
        try:
            return await call_next(context)
        except ValidationError as exc:
            raise ToolError(bounded(f"invalid_argument: {_describe(exc)}")) from exc
        except NotFoundError as exc:
            raise ToolError(bounded(f"not_found: no tool is named {echo(context.message.name)!r}")) from exc
        except ToolError as exc:
            raise ToolError(_coded(exc, f"tool {context.message.name}")) from exc

    async def on_read_resource(
        self,
        context: MiddlewareContext[ReadResourceRequestParams],
        call_next: CallNext[ReadResourceRequestParams, ResourceResult],
    ) -> ResourceResult:
        """Reads of ``pack://{id}``: an address no resource has is ``not_found``; the rest as for tools."""
        try:
            return await call_next(context)
        except NotFoundError as exc:
            where = echo(str(context.message.uri))
            raise ResourceError(bounded(f"not_found: no resource has the address {where!r}")) from exc
        except FastMCPError as exc:
            raise ResourceError(_coded(exc, f"resource {echo(str(context.message.uri))}")) from exc

    async def on_get_prompt(
        self,
        context: MiddlewareContext[GetPromptRequestParams],
        call_next: CallNext[GetPromptRequestParams, PromptResult],
    ) -> PromptResult:
        _refuse_surrogates(context.message.arguments, PromptError)
        try:
            return await call_next(context)
        except NotFoundError as exc:
            raise PromptError(bounded(f"not_found: no prompt is named {echo(context.message.name)!r}")) from exc
        except ValidationError as exc:  # a required argument left out
            raise PromptError(bounded(f"invalid_argument: {exc}")) from exc
        except FastMCPError as exc:
            if isinstance(exc.__cause__, PydanticValidationError):
                raise PromptError(bounded(f"invalid_argument: {_problems(exc.__cause__)}")) from exc
            raise PromptError(_coded(exc, f"prompt {echo(context.message.name)}")) from exc


def _refuse_surrogates(arguments: dict[str, Any] | None, error: type[FastMCPError]) -> None:
    """A lone surrogate is not text: Neo4j and every JSON encoder would refuse it further down."""
    where = _lone_surrogate(arguments or {})
    if where is not None:
        raise error(bounded(f"invalid_argument: {echo(where)} holds a lone UTF-16 surrogate, which is not text"))


def _coded(exc: Exception, what: str) -> str:
    """A coded message as it is (bounded); fastmcp's mask over an unexpected exception becomes ``internal``."""
    message = str(exc)
    if code_of(message) is None:
        log.error("internal error in %s", what, exc_info=exc.__cause__ or exc)
        return "internal: the server failed on this call; its log has the details"
    return bounded(message)


def bounded(message: str) -> str:
    """``message``, cut (with ``…``) to ``ERROR_BYTES`` of JSON text, so that any error fits any budget."""
    if _json_bytes(message) <= ERROR_BYTES:
        return message
    low, high = 0, len(message)  # the longest prefix that fits, by bisection (the cost is per character)
    while low < high:
        middle = (low + high + 1) // 2
        if _json_bytes(message[:middle] + "…") <= ERROR_BYTES:
            low = middle
        else:
            high = middle - 1
    return message[:low] + "…"


def _json_bytes(text: str) -> int:
    return len(json.dumps(text).encode())


def _lone_surrogate(value: Any, path: str = "") -> str | None:
    """The argument path (``packs[2]``) of the first string holding a surrogate code point, else None."""
    if isinstance(value, str):
        return path if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        pairs = [(f"{path}.{key}" if path else str(key), item) for key, item in value.items()]
    elif isinstance(value, list):
        pairs = [(f"{path}[{index}]", item) for index, item in enumerate(value)]
    else:
        return None
    for where, item in pairs:
        if _SURROGATE.search(where):
            return "an argument name"
        if (found := _lone_surrogate(item, where)) is not None:
            return found
    return None


def _describe(error: ValidationError) -> str:
    """Which arguments failed and why, from the schema's words; the input is repeated only as the list a short
    scalar was meant to be (``kinds="standards-track"``: write ``["standards-track"]``)."""
    cause = error.__cause__
    if not isinstance(cause, PydanticValidationError):
        return "the arguments do not match the tool's input schema"
    return _problems(cause)


def _problems(error: PydanticValidationError) -> str:
    problems = [
        f"{'.'.join(echo(str(part)) for part in detail['loc'])}: {detail['msg']}{_as_list(detail)}"
        for detail in error.errors(include_url=False, include_context=False)
    ]
    return name_list(problems, "; ")


def _as_list(detail: Any) -> str:
    """The JSON list a lone scalar was meant to be: the commonest slip of a hand-written call."""
    value = detail.get("input")
    if detail["type"] != "list_type" or not isinstance(value, str | int | float) or isinstance(value, bool):
        return ""
    if len(str(value)) > LIST_HINT_CHARS:
        return ", even of one item: [...]"
    return f", even of one item: {echo(json.dumps([value], ensure_ascii=False))}"
