"""One declaration per tool: every served tool comes from a group, and the declaration (not the tool) fits the
answer to the budget and records an observed call. Fast: no store is opened."""

from __future__ import annotations

import asyncio
import threading
import uuid
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, cast

import pytest

from graphrag.config import Settings
from graphrag.observations.admission import Admission
from graphrag.retrieval.config import DEFAULT
from graphrag.retrieval.models import SearchHit, SearchResult
from graphrag.server.answers import SearchAnswer, search_answer
from graphrag.server.app import create_server
from graphrag.server.budget import fit_list
from graphrag.server.context import KEPT_SEARCHES, Services
from graphrag.server.declaring import Tools
from graphrag.server.memory_tools import MEMORY_TOOLS
from graphrag.server.observed import Observed, observing
from graphrag.server.observing import FEEDBACK_TOOLS
from graphrag.server.schemas import READ_ONLY
from graphrag.server.team_tools import TEAM_TOOLS
from graphrag.server.tools import PACK_TOOLS

pytestmark = pytest.mark.fast
BUDGET = 2_000
EXAMPLE = Tools()


def _hit(number: int) -> SearchHit:
    return SearchHit(
        id=f"E.{number}", pack="p", kind="thing", title=f"Thing {number}", summary="words " * 40,
        path=f"e{number}.md", sha256="ab" * 32, score=1.0 / number, matched=["text"],
    )  # fmt: skip


def _fit(answer: SearchAnswer, budget: int) -> SearchAnswer:
    return fit_list(answer, "results", budget, "the example")


@EXAMPLE.tool(READ_ONLY, fit=_fit, observed="query")
def example_search(query: str, *, ctx: Any) -> SearchAnswer:
    """Twenty hits, far more than the budget holds: the declaration cuts them, not this function."""
    return search_answer(SearchResult(results=[_hit(n) for n in range(1, 21)], available=57), set(), "text")


def _context() -> Any:
    services = Services.__new__(Services)
    object.__setattr__(services, "settings", Settings(graphrag_response_budget_bytes=BUDGET))
    return SimpleNamespace(lifespan_context={"services": services})


def test_a_search_is_kept_per_set_of_hidden_packs_and_the_least_recent_goes() -> None:
    services = Services.__new__(Services)
    stores = {"graph": None, "embedder": None, "vectors": None, "relations": None, "snapshot": None}
    for name, value in {**stores, "settings": Settings(), "search": DEFAULT, "searches": {}}.items():
        object.__setattr__(services, name, value)
    object.__setattr__(services, "searches_lock", threading.Lock())
    first = services.pack_search(frozenset({"team-0"}))
    assert services.pack_search(frozenset({"team-0"})) is first
    for n in range(1, KEPT_SEARCHES + 1):
        services.pack_search(frozenset({f"team-{n}"}))
    assert len(services.searches) == KEPT_SEARCHES
    assert services.pack_search(frozenset({"team-0"})) is not first  # it was the least recent: built again


def test_every_served_tool_is_declared_in_a_group() -> None:
    server = create_server(Settings(graphrag_home=cast(Any, "/nonexistent")))
    served = {tool.name for tool in asyncio.run(server.list_tools())}
    declared = {
        d.fn.__name__ for group in (PACK_TOOLS, MEMORY_TOOLS, TEAM_TOOLS, FEEDBACK_TOOLS) for d in group.declared
    }
    assert served <= declared
    assert PACK_TOOLS.observed() == {"pack_search": "query", "pack_context": "question"}


def test_the_declaration_fits_the_answer_and_notes_an_observed_call() -> None:
    admission = Admission(uuid.uuid4(), "agent", datetime.now(UTC), b"h", None, None)
    observed = Observed(admission)
    with observing(observed):
        fitted = example_search(query="q", ctx=_context())
    kept = [hit.id for hit in fitted.results]
    assert 0 < len(kept) < 20 and fitted.omitted == 20 - len(kept)
    assert {hit.observation_id for hit in fitted.results} == {observed.observation_id}
    assert [h.id for h in observed.hits or []] == kept
    assert (observed.available, observed.search_mode, observed.omitted, len(observed.retrieved)) == (
        57,
        "text",
        fitted.omitted,
        20,
    )


def test_an_unobserved_call_is_fitted_and_carries_no_observation() -> None:
    fitted = example_search(query="q", ctx=_context())
    assert fitted.omitted > 0
    assert all(hit.observation_id is None for hit in fitted.results)
