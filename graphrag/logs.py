"""The service's log: standard ``logging`` to stderr, as text or JSON lines (``GRAPHRAG_LOG_FORMAT``).

Entry points (``graphrag serve``, ``graphrag ingest``) call ``configure_logging(settings)`` once. stderr,
because stdout carries the MCP protocol over stdio. What is logged is what an operator needs (a tool
call's name, outcome and duration; an internal error's traceback; a store that stopped answering), never a
query's text or a token. Libraries log at WARNING and above, because their INFO lines repeat every
request (mcp, httpx) and their DEBUG lines carry request bodies; uvicorn's access log and fastmcp's start
lines stay at INFO, the access log without query strings.

Call it after importing fastmcp: fastmcp installs its own handlers when it is first imported, and this
routes its records through the service's handler instead.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

from graphrag.config import Settings

SERVICE_LOGGERS = ("graphrag", "ingest")  # the packages of this project
_AT_INFO = ("uvicorn", "fastmcp")  # startup lines (where the server listens) and uvicorn's access log
_OWN_HANDLERS = ("uvicorn", "uvicorn.access", "uvicorn.error", "fastmcp")  # loggers their libraries equip
# psycopg's pool logs each failed connection with the server's address and error text; the observations
# journal logs its own constant line instead (docs/observations.md: no database error details in the log)
_SILENT = ("psycopg",)
# fastmcp's own line (a traceback, and the address read) per failed call, resource read or prompt: the
# service's call log says the outcome, and its error middleware logs an internal error's traceback
_FASTMCP_CALL_ERRORS = (
    "Error calling tool",
    "Invalid arguments for tool",
    "Error reading resource",
    "Error rendering prompt",
)
# what every record has, and uvicorn's coloured copy of its message: not extra fields of a JSON line
_RECORD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName", "color_message"}


class JsonLines(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the record's extra fields, traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update({key: value for key, value in vars(record).items() if key not in _RECORD_FIELDS})
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class _PathWithoutQuery(logging.Filter):
    """uvicorn's access line without the query string, which may carry a token or a query's text."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, version, status = record.args
            record.args = (client, method, str(path).split("?", 1)[0], version, status)
        return True


class _WithoutFastmcpCallErrors(logging.Filter):
    """fastmcp's own line per failed call, read or prompt repeats the service's call log
    (``graphrag.server.call_log``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(_FASTMCP_CALL_ERRORS)


_PATH_ONLY = _PathWithoutQuery()
_NO_REPEATS = _WithoutFastmcpCallErrors()
_installed: list[logging.Handler] = []  # the handler this module put on the root logger, if any


def configure_logging(settings: Settings, stream: TextIO | None = None) -> None:
    """One handler on the root logger (``stream``, default stderr) with the configured level and format.

    Calling it again replaces that handler; handlers others put on the root logger stay.
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    if settings.graphrag_log_format == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    while _installed:
        root.removeHandler(_installed.pop())
    root.addHandler(handler)
    _installed.append(handler)
    root.setLevel(logging.WARNING)
    level = logging.getLevelNamesMapping()[settings.graphrag_log_level]
    for name in SERVICE_LOGGERS:
        logging.getLogger(name).setLevel(level)
    for name in _OWN_HANDLERS:
        library = logging.getLogger(name)
        for old in library.handlers[:]:
            library.removeHandler(old)
        library.propagate = True
        library.setLevel(max(level, logging.INFO) if name in _AT_INFO else logging.NOTSET)
    for name in _SILENT:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    logging.getLogger("uvicorn.access").addFilter(_PATH_ONLY)
    logging.getLogger("fastmcp.server.server").addFilter(_NO_REPEATS)
