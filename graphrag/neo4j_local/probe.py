"""Cheap, bounded checks of what is out there: a TCP port, Bolt with our credentials, Browser's HTTP discovery,
a held store lock.

They let ``start`` say *why* it cannot start (port taken, folder locked, wrong password)
instead of leaving the user with a Java stack trace in a log file.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import socket
import urllib.request
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError
from pydantic import BaseModel, ValidationError

from graphrag.errors import StoreUnavailable

BoltState = Literal["ok", "auth_failed", "down"]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback never goes through a proxy


def bolt_port(uri: str) -> int:
    """The port of NEO4J_URI, refusing remote hosts: a local server cannot serve those."""
    parts = urlsplit(uri)
    if parts.hostname not in LOOPBACK:
        raise StoreUnavailable(
            f"NEO4J_URI={uri} is not on this machine; `graphrag neo4j` only runs a local server"
            " (unset NEO4J_URI or point it at bolt://127.0.0.1:7687)"
        )
    return parts.port or 7687


def port_open(port: int, host: str = "127.0.0.1", timeout: float = 0.5) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=timeout):
        return True
    return False


def bolt_state(uri: str, user: str, password: str) -> BoltState:
    """Connect, authenticate and run ``RETURN 1``; only "ok" means queries will work."""
    if not port_open(urlsplit(uri).port or 7687, urlsplit(uri).hostname or "127.0.0.1"):
        return "down"
    logging.getLogger("neo4j").setLevel(logging.CRITICAL)  # a refused probe is an answer, not news
    try:
        with GraphDatabase.driver(
            uri, auth=(user, password), connection_timeout=3.0, connection_acquisition_timeout=5.0
        ) as driver:
            driver.verify_connectivity()
            driver.execute_query("RETURN 1")
    except AuthError:
        return "auth_failed"
    except (DriverError, Neo4jError, OSError):
        return "down"
    return "ok"


class Discovery(BaseModel):
    """The part of Neo4j's HTTP discovery document (``GET /``) that Browser reads before its connect form."""

    bolt_direct: str
    neo4j_version: str


def discovery(http_port: int, timeout: float = 2.0) -> Discovery | None:
    """The local server's discovery document, or None while its HTTP side (Browser's origin) does not answer it."""
    request = urllib.request.Request(f"http://127.0.0.1:{http_port}/", headers={"Accept": "application/json"})
    try:
        with DIRECT.open(request, timeout=timeout) as answer:
            return Discovery.model_validate_json(answer.read(64_000))
    except (OSError, ValidationError):
        return None


def store_locked(lock_file: Path) -> bool:
    """True if another process holds Neo4j's store lock (a POSIX lock, as Java's FileChannel takes it)."""
    if not lock_file.is_file():
        return False
    try:
        with lock_file.open("r+b") as handle:
            try:
                fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.lockf(handle, fcntl.LOCK_UN)
    except OSError:
        return False
    return False
