"""``configure_logging``: JSON lines with the fields an operator needs, levels that keep library chatter out,
and uvicorn's access lines without query strings."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from graphrag.config import Settings
from graphrag.logs import configure_logging

pytestmark = pytest.mark.fast

TOUCHED = ("", "graphrag", "uvicorn", "uvicorn.access", "uvicorn.error", "fastmcp", "fastmcp.server.server")


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    """The log's output; the loggers are put back as they were afterwards (the suite shares them)."""
    saved: dict[str, Any] = {}
    for name in TOUCHED:
        logger = logging.getLogger(name)
        saved[name] = (logger.level, logger.propagate, logger.handlers[:], logger.filters[:])
    yield io.StringIO()
    for name, (level, propagate, handlers, filters) in saved.items():
        logger = logging.getLogger(name)
        logger.setLevel(level)
        logger.propagate = propagate
        logger.handlers[:] = handlers
        logger.filters[:] = filters


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_json_lines_carry_extra_fields_and_tracebacks(stream: io.StringIO) -> None:
    configure_logging(Settings(graphrag_log_format="JSON"), stream)
    call = {"tool": "pack_get", "outcome": "not_found", "duration_ms": 2.5}
    logging.getLogger("graphrag.server.call_log").info("tool %(tool)s", call, extra=call)
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("graphrag.server.errors").exception("internal error in tool %s", "pack_get")

    first, second = lines(stream)
    assert {key: first[key] for key in ("level", "logger", "message", "tool", "outcome", "duration_ms")} == {
        "level": "INFO",
        "logger": "graphrag.server.call_log",
        "message": "tool pack_get",
        **call,
    }
    assert second["level"] == "ERROR" and second["traceback"].endswith("RuntimeError: boom")


def test_levels_keep_library_chatter_out_and_apply_to_the_service(stream: io.StringIO) -> None:
    configure_logging(Settings(graphrag_log_level="warning", graphrag_log_format="json"), stream)
    logging.getLogger("graphrag.server.call_log").info("a call")
    logging.getLogger("graphrag.server.errors").warning("Neo4j stopped answering")
    logging.getLogger("mcp.server.lowlevel").info("Processing request of type CallToolRequest")
    logging.getLogger("fastmcp.server.server").error("Error calling tool 'pack_get'")  # the call log has it
    logging.getLogger("fastmcp.server.server").error("Error reading resource 'pack://%s'", "a" * 100)
    logging.getLogger("fastmcp.server.server").error("Error rendering prompt 'multi_hop_answer'")

    assert [line["message"] for line in lines(stream)] == ["Neo4j stopped answering"]


def test_access_lines_leave_out_query_strings(stream: io.StringIO) -> None:
    configure_logging(Settings(), stream)
    access = ("127.0.0.1:5000", "GET", "/health?token=secret&q=words", "1.1", 200)
    logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', *access)

    assert stream.getvalue().rstrip().endswith('uvicorn.access: 127.0.0.1:5000 - "GET /health HTTP/1.1" 200')
