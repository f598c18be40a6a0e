"""Errors are small and coded whatever the caller sends: echoes are capped, lone surrogates and forged cursors
are ``invalid_argument``, and a bug answers ``internal`` while its traceback goes to the server log."""

from __future__ import annotations

import base64
import json
import logging
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError

from graphrag.config import Settings
from graphrag.embedding import Embedder, Vectors
from graphrag.errors import ECHO_CHARS
from graphrag.server.app import create_server
from graphrag.server.errors import ERROR_BYTES
from tests.conftest import EXAMPLES
from tests.server.conftest import VALID, refuses_past_limits, string_limits, write_entity

HUGE = "a" * 100_000
MCP_DOCS = (EXAMPLES.parent / "docs" / "mcp.md").read_text(encoding="utf-8")
LONG = "a" * 500  # longer than any echo, within every id's limit (a longer value is refused by its limit)


async def error(client: Client[Any], tool: str, arguments: dict[str, Any]) -> str:
    with pytest.raises(ToolError) as caught:
        await client.call_tool(tool, arguments)
    message = str(caught.value)
    assert len(json.dumps(message).encode()) <= ERROR_BYTES, f"{tool}: {len(message)} characters"
    return message


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("pack_get", {"id": LONG}, "not_found: no entity has the id 'aaa"),
        ("pack_graph", {"id": "SM.MISSION.LUNA9", "to": LONG}, "not_found: no entity has the id 'aaa"),
        ("pack_graph", {"id": "SM.MISSION.LUNA9", "relations": [LONG[:200]]}, "invalid_argument: unknown relation"),
        (
            "pack_search",
            {"query": "x", "packs": [f"{n}{LONG}" for n in range(50)]},
            "invalid_argument: unknown pack '0aaa",
        ),
        ("pack_graph", {"id": "SM.MISSION.LUNA9", "depth": HUGE}, "invalid_argument: depth: Input should be"),
        ("search", {"query": "x", "workspace": LONG[:200]}, "workspace_inactive: workspace 'aaa"),
        (
            "save_memory",
            {"content": "x", "derived_from": [f"{n}{LONG[:190]}" for n in range(50)]},
            "not_found: derived",
        ),
        (HUGE, {}, "not_found: no tool is named 'aaa"),
    ],
    ids=["pack_get id", "graph to", "relation", "packs", "schema", "workspace", "derived_from", "tool name"],
)
async def test_echoed_input_is_capped(
    example: Client[Any], tool: str, arguments: dict[str, Any], expected: str
) -> None:
    message = await error(example, tool, arguments)
    assert message.startswith(expected), message[:300]
    assert "a" * (ECHO_CHARS + 1) not in message


def surrogate_cases(tools: Sequence[Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every argument of every tool whose schema mentions strings, given a lone surrogate (lists in a list)."""
    cases = []
    for tool in tools:
        for name, schema in tool.input_schema["properties"].items():
            if "string" in str(schema):
                cases.append((tool.name, {**VALID[tool.name], name: "ok \ud800"}))
            if "array" in str(schema):
                cases.append((tool.name, {**VALID[tool.name], name: ["ok", "\udfff tail"]}))
    return cases


async def test_a_lone_surrogate_in_any_string_argument_is_invalid(every_tool: Client[Any]) -> None:
    cases = surrogate_cases(await every_tool.list_tools())
    assert len(cases) == 53  # every text argument of the fifteen tools, lists also as lists
    for tool, arguments in cases:
        message = await error(every_tool, tool, arguments)
        assert message.startswith("invalid_argument: ") and "lone UTF-16 surrogate" in message, (tool, message)


async def test_every_string_argument_has_a_documented_limit(every_tool: Client[Any]) -> None:
    limits = string_limits(await every_tool.list_tools())
    assert [(tool, name) for tool, name, limit, _ in limits if limit is None] == []
    documented = set(re.findall(r"^\| `(\w+)` \| `(\w+)` \| ([\d,]+) \|", MCP_DOCS, flags=re.MULTILINE))
    assert {(tool, name, f"{limit:,}") for tool, name, limit, _ in limits} <= documented


async def test_a_string_argument_past_its_limit_is_invalid(every_tool: Client[Any]) -> None:
    await refuses_past_limits(every_tool, await every_tool.list_tools())


async def test_limits_count_characters_after_normalisation(example: Client[Any]) -> None:
    decomposed = "e\u0301" * 500  # 1,000 code points as sent, 500 characters once composed: within 500
    saved = (await example.call_tool("save_memory", {"content": "x", "fact_key": decomposed})).structured_content
    assert saved["fact_key"] == decomposed
    message = await error(example, "save_memory", {"content": "x", "fact_key": decomposed + "e"})
    assert message.startswith("invalid_argument: fact_key: Value error, at most 500 characters"), message


def forged(**fields: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(fields).encode()).decode().rstrip("=")


async def test_forged_cursor_offsets_are_invalid(tmp_path: Any, run_ingest: Any, client_for: Any) -> None:
    root = tmp_path / "long"
    root.mkdir()
    write_entity(root, "LONG.1", body="Line of text.\n" * 5_000, kind="report", title="Long")
    run_ingest(root)
    async with client_for() as client:
        first = (await client.call_tool("pack_get", {"id": "LONG.1", "cursor": "start"})).structured_content
        genuine = json.loads(base64.urlsafe_b64decode(first["next_cursor"] + "=="))
        assert genuine["offset"] > 0
        for offset in (-1, 2**70, 70_000, 10**9, 2**31, 2**31 - 1, 2**30 + 1):
            cursor = forged(**{**genuine, "offset": offset})
            message = await error(client, "pack_get", {"id": "LONG.1", "cursor": cursor})
            assert message.startswith("invalid_argument: cursor is not one this server gave out"), (offset, message)
        links = forged(**{**genuine, "links": 2**31})
        message = await error(client, "pack_get", {"id": "LONG.1", "cursor": links})
        assert message.startswith("invalid_argument: cursor is not one this server gave out"), message
        metadata = forged(**{**genuine, "format": "metadata"})
        message = await error(client, "pack_get", {"id": "LONG.1", "cursor": metadata, "format": "metadata"})
        assert message.startswith("invalid_argument: cursor is not one this server gave out")


class FailingEmbedder:
    """The real embedder, except that it breaks on one word: a bug inside a tool call."""

    def __init__(self, inner: Embedder) -> None:
        self.id, self.dimension, self._inner = inner.id, inner.dimension, inner

    def embed(self, texts: Sequence[str]) -> Vectors:
        if any("explode" in text for text in texts):
            raise RuntimeError("boom: internal detail bolt://10.0.0.7:7687")
        vectors: Vectors = np.asarray(self._inner.embed(texts))
        return vectors


async def test_a_bug_answers_internal_and_logs_its_traceback(
    run_ingest: Any, embedder: Embedder, caplog: pytest.LogCaptureFixture, settings: Settings
) -> None:
    run_ingest(EXAMPLES / "space-missions")
    caplog.set_level(logging.INFO, logger="graphrag")
    async with Client(create_server(settings, embedder=FailingEmbedder(embedder))) as client:
        message = await error(client, "pack_search", {"query": "explode", "mode": "vector"})
        await client.call_tool("pack_search", {"query": "rocket", "mode": "vector"})

    assert message == "internal: the server failed on this call; its log has the details"
    failures = [r for r in caplog.records if r.exc_info and r.name == "graphrag.server.errors"]
    assert len(failures) == 1 and isinstance(failures[0].exc_info[1], RuntimeError)  # type: ignore[index]
    calls = [(r.tool, r.outcome) for r in caplog.records if r.name == "graphrag.server.call_log"]  # type: ignore[attr-defined]
    assert calls == [("pack_search", "internal"), ("pack_search", "ok")]
    assert all("explode" not in r.getMessage() and "rocket" not in r.getMessage() for r in caplog.records)
