"""One declaration per tool: ``@group.tool(hints, fit=..., observed=...)``, and ``group.register(mcp)``.

A tool is a plain function of its arguments (and ``ctx``) that returns its whole answer. The declaration adds,
the same way for every tool: errors that start with their code (``coded``); the answer cut to the response
budget (``fit``); for a tool the observations journal records (``observed``: the argument that holds the
query, which the journal's hook reads to admit the call), the observation stamped on the answer before the
budget and its returned hits noted after. A tool cannot forget any of them, and the group registers its tools
with schemas every client reads (``add_tool``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar, overload

from fastmcp import FastMCP
from mcp.types import ToolAnnotations

from graphrag.server.context import services_of
from graphrag.server.errors import coded
from graphrag.server.observed import Observable, current_observation
from graphrag.server.schemas import add_tool

P = ParamSpec("P")
A = TypeVar("A")
R = TypeVar("R")
Fit = Callable[[A, int], A]  # an answer cut to a budget in bytes


@dataclass(frozen=True)
class Declared:
    fn: Callable[..., Any]
    annotations: ToolAnnotations
    observed: str | None  # the argument holding the query, for a tool the journal records


class Tools:
    """A group of tools served together (the pack tools, the memory tools, the team tools, feedback)."""

    def __init__(self) -> None:
        self.declared: list[Declared] = []

    @overload
    def tool(self, annotations: ToolAnnotations) -> Callable[[Callable[P, R]], Callable[P, R]]: ...

    @overload
    def tool(
        self, annotations: ToolAnnotations, *, fit: Fit[A], observed: str | None = None
    ) -> Callable[[Callable[P, A]], Callable[P, A]]: ...

    def tool(
        self, annotations: ToolAnnotations, *, fit: Fit[Any] | None = None, observed: str | None = None
    ) -> Callable[[Callable[P, Any]], Callable[P, Any]]:
        def declare(fn: Callable[P, Any]) -> Callable[P, Any]:
            assert fit is not None or observed is None, "an observed tool notes what its fit returned: give it one"
            answering = coded(fn if fit is None else _observed(fn, fit) if observed else _fitted(fn, fit))
            self.declared.append(Declared(answering, annotations, observed))
            return answering

        return declare

    def register(self, mcp: FastMCP) -> None:
        for declared in self.declared:
            add_tool(mcp, declared.fn, declared.annotations)

    def observed(self) -> dict[str, str]:
        """Tool name -> the argument holding its query, for each tool the journal records."""
        return {d.fn.__name__: d.observed for d in self.declared if d.observed}


def _budget(kwargs: dict[str, Any]) -> int:
    """The response budget, from the services of the call's ``ctx`` (a tool with a fit takes ``ctx: Context``)."""
    return services_of(kwargs["ctx"]).settings.graphrag_response_budget_bytes


def _fitted(fn: Callable[P, A], fit: Fit[A]) -> Callable[P, A]:
    @functools.wraps(fn)
    def answer(*args: P.args, **kwargs: P.kwargs) -> A:
        return fit(fn(*args, **kwargs), _budget(kwargs))

    return answer


def _observed(fn: Callable[P, A], fit: Fit[A]) -> Callable[P, A]:
    @functools.wraps(fn)
    def answer(*args: P.args, **kwargs: P.kwargs) -> A:
        whole = fn(*args, **kwargs)
        observed = current_observation()
        if observed is None:
            return fit(whole, _budget(kwargs))
        assert isinstance(whole, Observable), f"{fn.__name__} is observed: its answer must list its hits"
        whole.stamp(observed.observation_id)
        observed.retrieve(whole)
        fitted = fit(whole, _budget(kwargs))
        assert isinstance(fitted, Observable)
        observed.returned(fitted)
        return fitted

    return answer
