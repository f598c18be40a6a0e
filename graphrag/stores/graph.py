"""Neo4j: the knowledge graph. Runs only the queries in ``cypher/``, with parameters."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Self, TypeVar

from neo4j import Driver, GraphDatabase, ManagedTransaction, Query, RoutingControl, unit_of_work
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

from graphrag.config import Settings
from graphrag.errors import GraphRagError, StoreUnavailable
from graphrag.stores import Store
from graphrag.stores.cypher import CypherFile, query

BATCH_ROWS = 1000
T = TypeVar("T")
_DEADLINE: ContextVar[float | None] = ContextVar("graphrag_deadline", default=None)


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Every transaction opened inside (in this context, and in contexts copied from it: the threads a tool
    call runs in) carries a timeout of the time left, so Neo4j ends the work of a call that was abandoned or
    asked too much, instead of running it on after the answer no longer matters."""
    token = _DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


@contextmanager
def without_deadline() -> Iterator[None]:
    """For work a call starts that is bounded by what it works on, not by the caller's patience: indexing a
    team source, an archivist run. Its transactions carry no call deadline."""
    token = _DEADLINE.set(None)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _time_left() -> float | None:
    end = _DEADLINE.get()
    if end is None:
        return None
    left = end - time.monotonic()
    if left <= 0:
        raise StoreUnavailable("the call ran past its deadline; ask for less (a smaller depth or limit)")
    return left


def _timed(text: str) -> Query:
    return Query(text, timeout=_time_left())


def _timed_work(work: Callable[..., T]) -> Callable[..., T]:
    left = _time_left()
    return work if left is None else unit_of_work(timeout=left)(work)


def _unreachable(settings: Settings, reason: object) -> StoreUnavailable:
    detail = " ".join(str(reason).split())  # the driver's messages span lines
    return StoreUnavailable(
        f"Neo4j at {settings.neo4j_uri} is not reachable ({detail}); "
        "start the local server with `graphrag neo4j start`, or set NEO4J_URI"
    )


class GraphStore(Store):
    """A driver plus the handful of read/write helpers the services need."""

    def __init__(self, driver: Driver, database: str) -> None:
        self._driver = driver
        self._database = database

    @classmethod
    def connect(cls, settings: Settings, *, retry_seconds: float = 10) -> Self:
        """``retry_seconds`` bounds how long a query retries a lost connection (the server answers sooner)."""
        driver = GraphDatabase.driver(
            settings.neo4j_uri,
            auth=(settings.neo4j_user, settings.neo4j_password.get_secret_value()),
            connection_timeout=5,
            max_transaction_retry_time=retry_seconds,
            notifications_min_severity="OFF",
        )
        try:
            _verify(driver)
        except AuthError as exc:
            driver.close()
            raise StoreUnavailable(
                f"Neo4j at {settings.neo4j_uri} refused user {settings.neo4j_user!r}: check NEO4J_PASSWORD"
            ) from exc
        except (ServiceUnavailable, OSError) as exc:
            driver.close()
            raise _unreachable(settings, exc) from exc
        return cls(driver, settings.neo4j_database)

    def close(self) -> None:
        self._driver.close()

    def ensure_schema(self, name: str = "schema") -> None:
        """Run a multi-statement schema file (idempotent ``CREATE ... IF NOT EXISTS`` statements).

        ``IF NOT EXISTS`` would keep a full-text index whose analyzer or fields the file changed, so such an
        index is dropped first. Only the file's own indexes are touched, by name: an analyst's full-text
        index, even on ``:Entity``, stays (an index the service no longer creates is dropped by name in the
        file); every index is online when this returns.
        """
        statements = query(name).statements
        wanted = dict(filter(None, map(fulltext_definition, statements)))
        existing = {row["name"] for row in self.read("schema_indexes")}  # a constraint's index bears its name
        for row in self.read("schema_fulltext_indexes") if wanted else []:
            found = (row["labels"], row["properties"], row["analyzer"], bool(row["eventually_consistent"]))
            if row["name"] in wanted and wanted[row["name"]] != found:
                self.write("schema_drop_index", index=row["name"])
                existing.discard(row["name"])
        # each statement is a schema transaction of its own: one already in effect is not sent (a server's start
        # ran 23 of them, 0.05 s, to change nothing)
        for statement in statements:
            if not _in_effect(statement, existing):
                self._driver.execute_query(_timed(statement), database_=self._database)
        if wanted:
            self.write("schema_await_indexes")

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self.read_cypher(query(name), **params)

    def read_cypher(self, cypher: CypherFile, **params: Any) -> list[dict[str, Any]]:
        """A read of a ``cypher/`` file given as text (the server substitutes validated hop-bound literals)."""
        records, _, _ = self._driver.execute_query(
            _timed(cypher.body), params, routing_=RoutingControl.READ, database_=self._database
        )
        return [record.data() for record in records]

    def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """A write in one transaction; returns what the query returns (most return nothing)."""
        records, _, _ = self._driver.execute_query(
            _timed(query(name).body), params, routing_=RoutingControl.WRITE, database_=self._database
        )
        return [record.data() for record in records]

    def run_auto_commit(self, name: str, **params: Any) -> None:
        """For ``CALL { } IN TRANSACTIONS``, which cannot run inside a managed transaction."""
        with self._driver.session(database=self._database) as session:
            session.run(_timed(query(name).body), params).consume()

    def write_together(self, steps: Sequence[tuple[str | CypherFile, dict[str, Any]]]) -> None:
        """Several queries in one transaction (each named, or given as text): all of them land, or none."""

        def work(tx: ManagedTransaction) -> None:
            for step, params in steps:
                tx.run((query(step) if isinstance(step, str) else step).body, params).consume()

        with self._driver.session(database=self._database) as session:
            session.execute_write(_timed_work(work))


@retry(
    retry=retry_if_exception_type(ServiceUnavailable),
    stop=stop_after_attempt(3),
    wait=wait_exponential_jitter(max=2),
    reraise=True,
)
def _verify(driver: Driver) -> None:
    """The only retry here: a server that is still starting answers a moment later."""
    driver.verify_connectivity()


_FULLTEXT = re.compile(
    r"CREATE FULLTEXT INDEX (\w+) IF NOT EXISTS FOR \(\w+:(\w+)\) ON EACH \[([^\]]*)\]"
    r".*`fulltext\.analyzer`: '([\w-]+)'(?:, `fulltext\.eventually_consistent`: (true|false))?",
    re.DOTALL,
)


_GUARDED = re.compile(r"\s*(CREATE|DROP)\b[^;]*?\b(?:INDEX|CONSTRAINT) (\w+) IF (NOT )?EXISTS\b", re.IGNORECASE)


def _in_effect(statement: str, existing: set[str]) -> bool:
    """Whether ``CREATE ... name IF NOT EXISTS`` finds ``name`` there already, or ``DROP ... name IF EXISTS``
    finds it gone: the statement would change nothing."""
    match = _GUARDED.match(statement)
    if match is None:
        return False
    verb, name, negated = match.groups()
    return (name in existing) == (verb.upper() == "CREATE" and negated is not None)


def fulltext_definition(statement: str) -> tuple[str, tuple[list[str], list[str], str, bool]] | None:
    """``(name, ([label], [property, ...], analyzer, eventually consistent))`` of a full-text index
    statement, as SHOW INDEXES spells them."""
    match = _FULLTEXT.search(statement)
    if match is None:
        return None
    name, label, fields, analyzer, eventually = match.groups()
    properties = [field.strip().split(".", 1)[-1] for field in fields.split(",")]
    return name, ([label], properties, analyzer, eventually == "true")


__all__ = ["GraphRagError", "GraphStore", "Neo4jError"]
