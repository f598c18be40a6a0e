"""``GRAPHRAG_QUERY_EXPANDER``: a language model the operator plugs into the memory search's expansion, through
the production server on the real Neo4j and embedder."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastmcp import Client

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.errors import InvalidArgument
from graphrag.memory.expansion import load_expander
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore
from tests.memory.conftest import save, search

RECORD = "Rollout of the billing service happens on Fridays"


async def search_with(expander: str | None, settings: Settings, embedder: Embedder, query: str) -> list[str]:
    """Save the record, then search with a fresh server that plugs in ``expander``; the contents found."""
    server = create_server(settings.model_copy(update={"graphrag_query_expander": expander}), embedder=embedder)
    async with Client(server) as client:
        await save(client, RECORD)
        hits: list[dict[str, Any]] = await search(client, query)
    return [h["content"] for h in hits]


async def test_the_plugged_model_adds_the_words_that_find_a_record(
    memory_graph: GraphStore, settings: Settings, embedder: Embedder
) -> None:
    assert await search_with(None, settings, embedder, "deployment") == []  # offline terms do not reach it
    memory_graph.run_auto_commit("test_wipe")
    memory_graph.write("test_mark")
    found = await search_with("tests.memory.expanders:synonyms", settings, embedder, "deployment")
    assert found == [RECORD]


async def test_a_failing_model_is_logged_and_the_search_goes_on(
    memory_graph: GraphStore, settings: Settings, embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="graphrag.memory.expansion"):
        found = await search_with("tests.memory.expanders:unreachable", settings, embedder, "deployment")
    assert found == []
    [record] = [r for r in caplog.records if r.name == "graphrag.memory.expansion"]
    assert record.getMessage() == "query expander failed; expanding with the project's own terms only"
    assert record.exc_info is not None and isinstance(record.exc_info[1], ConnectionError)


@pytest.mark.fast
@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "tests.memory.expanders",
            r"GRAPHRAG_QUERY_EXPANDER='tests.memory.expanders': expected package.module:factory",
        ),
        (
            "tests.memory.nowhere:synonyms",
            r"GRAPHRAG_QUERY_EXPANDER='tests.memory.nowhere:synonyms' cannot be imported",
        ),
        (
            "tests.memory.expanders:nothing",
            r"GRAPHRAG_QUERY_EXPANDER='tests.memory.expanders:nothing' cannot be imported",
        ),
        ("tests.memory.expanders:not_an_expander", r"did not give a query expander \(expand\)"),
    ],
)
def test_an_expander_that_cannot_be_loaded_stops_the_start(spec: str, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        create_server(Settings(graphrag_query_expander=spec))
    assert load_expander(None) is None
