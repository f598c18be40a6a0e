"""The runtime side of the journal: scheduled writes, feedback, export and cleanup, as the runtime role.

Recording must never slow or fail a search: ``schedule`` only hands the observation to a small thread pool
and returns. Every database operation has 2 s timeouts (connect, pool wait, statement, lock) and is never
retried; a write that fails is dropped with a constant warning. At most ``MAX_PENDING`` writes wait: past
that (a database that hangs under load), new observations are dropped rather than piling up in memory.

Every transaction first binds the account (transaction-local, ``sql/identify.sql``), so a pooled connection
never carries one account into another's request, then checks that row-level security binds the connected
role (``sql/runtime_guard.sql``): a superuser, a BYPASSRLS role or a member of the journal's owner is refused.
Logs never hold a query, an account's text, credentials or the database's error text: only the class of an
error (the driver's messages can quote DSNs and rows).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from graphrag.errors import GraphRagError
from graphrag.observations.model import ExportCandidate, Observation
from graphrag.observations.sql import query

TIMEOUT_SECONDS = 2.0
MAX_PENDING = 256
WRITERS = 2
log = logging.getLogger(__name__)


class JournalUnavailable(GraphRagError):
    """The journal's database did not answer in time, refused the runtime role, or failed."""

    code = "unavailable"


def connection_options(timeout: float = TIMEOUT_SECONDS) -> dict[str, Any]:
    """What every journal connection sets besides the DSN: bounded connect, statements and lock waits."""
    millis = int(timeout * 1000)
    return {
        "connect_timeout": max(1, round(timeout)),
        "options": f"-c statement_timeout={millis} -c lock_timeout={millis} "
        "-c idle_in_transaction_session_timeout=10000",
        "application_name": "graphrag-observations",
    }


class Journal:
    """The journal over one pool of runtime-role connections; ``close()`` drops writes still queued."""

    def __init__(self, dsn: str, *, timeout: float = TIMEOUT_SECONDS, connections: int = WRITERS + 2) -> None:
        """``connections``: the pool's most; the writers, plus feedback and cleanup, by default."""
        self._timeout = timeout
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            dsn,
            min_size=0,
            max_size=connections,
            kwargs=connection_options(timeout),
            open=False,
            timeout=timeout,
            reconnect_timeout=0,  # a failed connection is not retried: the next operation tries afresh
            name="observations",
        )
        self._writers = ThreadPoolExecutor(max_workers=WRITERS, thread_name_prefix="observations")
        self._pending: set[uuid.UUID] = set()
        self._lock = threading.Lock()

    def open(self) -> Journal:
        self._pool.open(wait=False)  # never waits for the database: it may be down, search must not care
        return self

    def close(self) -> None:
        self._writers.shutdown(wait=True, cancel_futures=True)
        self._pool.close(timeout=self._timeout)

    def __enter__(self) -> Journal:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # writes of observations: scheduled, never awaited

    def schedule(self, observation: Observation) -> bool:
        """Queue the write and return at once; False (and a warning) when the queue is full."""
        observation_id = observation.admission.observation_id
        with self._lock:
            if len(self._pending) >= MAX_PENDING:
                log.warning("observation dropped: %d writes already wait for the journal", MAX_PENDING)
                return False
            self._pending.add(observation_id)
        try:
            self._writers.submit(self._write, observation)
        except RuntimeError:  # shutting down
            self._done(observation_id)
            return False
        return True

    def pending(self, observation_id: uuid.UUID) -> bool:
        """Whether the write of this observation is still queued or running (a feedback race)."""
        with self._lock:
            return observation_id in self._pending

    def _done(self, observation_id: uuid.UUID) -> None:
        with self._lock:
            self._pending.discard(observation_id)

    def write(self, observation: Observation) -> None:
        """Write the observation now (what a scheduled write does); ``unavailable`` when it cannot."""
        with self.transaction(observation.admission.account) as cursor:
            cursor.execute(query("observation_record").statement, observation.parameters())

    def _write(self, observation: Observation) -> None:
        try:
            self.write(observation)
        except JournalUnavailable as exc:
            log.warning("observation not recorded: %s", exc.args[0])
        except Exception:  # a write must never take anything else down
            log.exception("observation not recorded: unexpected failure")
        finally:
            self._done(observation.admission.observation_id)

    # operations the caller waits for (each bounded by the same timeouts)

    @contextmanager
    def transaction(self, account: str) -> Iterator[psycopg.Cursor[dict[str, Any]]]:
        """A transaction bound to ``account`` on a role that row-level security binds; else ``unavailable``."""
        try:
            with self._pool.connection(timeout=self._timeout) as connection, connection.transaction():
                cursor = connection.cursor(row_factory=dict_row)
                cursor.execute(query("identify").statement, {"account": account})
                cursor.execute(query("runtime_guard").statement)
                row = cursor.fetchone()
                if row is None or not row["bound"]:
                    raise JournalUnavailable("the journal's role is not bound by row-level security: refused")
                yield cursor
        except JournalUnavailable:
            raise
        except (psycopg.Error, OSError) as exc:  # PoolTimeout is a psycopg.Error too
            raise JournalUnavailable(f"the journal's database failed ({type(exc).__name__})") from None

    def feedback(self, account: str, observation_id: uuid.UUID, hit_id: str, cited: bool | None) -> bool:
        """Record ``cited`` for a hit of the account's own unexpired observation; False when there is none."""
        parameters = {"observation_id": observation_id, "hit_id": hit_id, "account": account, "cited": cited}
        with self.transaction(account) as cursor:
            cursor.execute(query("feedback_record").statement, parameters)
            return cursor.fetchone() is not None

    def export(self, account: str) -> list[ExportCandidate]:
        """The account's export candidates (``sql/observation_export.sql``)."""
        with self.transaction(account) as cursor:
            cursor.execute(query("observation_export").statement, {"account": account})
            return [
                ExportCandidate(
                    query_id=str(row["observation_id"]),
                    text=row["query_text"],
                    tool=row["tool"],
                    mode=row["search_mode"],
                    observed_at=row["observed_at"],
                    expires_at=row["expires_at"],
                    returned=list(row["returned_entities"]),
                )
                for row in cursor.fetchall()
            ]

    def expire(self) -> int:
        """One cleanup batch; the count of rows deleted plus texts scrubbed."""
        try:
            with self._pool.connection(timeout=self._timeout) as connection, connection.cursor() as cursor:
                cursor.execute(query("observation_expire").statement)
                row = cursor.fetchone()
        except (psycopg.Error, OSError) as exc:
            raise JournalUnavailable(f"the journal's cleanup failed ({type(exc).__name__})") from None
        return int(row[0]) if row else 0
