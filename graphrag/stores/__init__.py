"""The stores: Neo4j (the graph) and Qdrant (the vectors), each behind a small class."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Self

from graphrag.errors import StoreUnavailable

log = logging.getLogger(__name__)


class Store:
    """Opened by a class method, closed by ``close()`` or a ``with`` block."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object | TracebackType) -> None:
        self.close()


# Neo4j's codes for a transaction ended by its timeout (``graphrag.stores.graph.deadline``), and for one
# ended by the server (shutting down, or an administrator's TERMINATE TRANSACTIONS).
TIMED_OUT = frozenset(
    {
        "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
        "Neo.ClientError.Transaction.TransactionTimedOut",
    }
)
TERMINATED = frozenset({"Neo.ClientError.Transaction.Terminated", "Neo.ClientError.Transaction.LockClientStopped"})


@contextmanager
def answering() -> Iterator[None]:
    """A store that stops answering in the middle of a run becomes ``StoreUnavailable`` naming the store:
    one line and exit 2 on the command line, as when it is down at the start; ``unavailable`` from a tool.
    Every driver error that means "not reachable, shutting down, try again" is one: a lost or refused
    connection, any transient error (a database that is stopping or starting), a transaction the server
    ended, and one that ran past the call's deadline. The driver's text, which names hosts, goes to the
    log only."""
    from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired, TransientError

    try:
        yield
    except (ServiceUnavailable, SessionExpired) as exc:
        log.warning("Neo4j stopped answering: %s", " ".join(str(exc).split()))
        raise StoreUnavailable("Neo4j stopped answering; start it with `graphrag neo4j start` and retry") from exc
    except Neo4jError as exc:
        if exc.code in TIMED_OUT:
            raise StoreUnavailable("the call ran past its deadline; ask for less (a smaller depth or limit)") from exc
        if not isinstance(exc, TransientError) and exc.code not in TERMINATED:
            raise
        log.warning("Neo4j could not answer now: %s", " ".join(str(exc).split()))
        raise StoreUnavailable("Neo4j could not answer now (it may be stopping or starting); retry") from exc
    except _qdrant_server_errors() as exc:
        log.warning("the Qdrant server stopped answering: %s", " ".join(str(exc).split()))
        raise StoreUnavailable("the Qdrant server stopped answering; check QDRANT_URL and retry") from exc


def _qdrant_server_errors() -> tuple[type[Exception], ...]:
    """A Qdrant server's "stopped answering" errors, once qdrant-client is loaded. Only a Qdrant server loads
    it (the embedded engine is Qdrant Edge), and importing it builds its models: half a second that the
    first tool call of every server paid for nothing."""
    module = sys.modules.get("qdrant_client.http.exceptions")
    return (module.ResponseHandlingException, module.UnexpectedResponse) if module is not None else ()
