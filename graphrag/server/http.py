"""How ``graphrag serve --transport http`` runs uvicorn: deadlines and a connection limit.

uvicorn sets no deadline for a request's head: a socket that sends nothing, or one header line a second,
is held forever (its keep-alive timer runs only between requests, and any byte cancels it). ``HeadDeadline``
gives every head ``GRAPHRAG_HTTP_HEADER_TIMEOUT_SECONDS`` from the moment the connection opens or its last
response ends, then closes the connection. ``GRAPHRAG_HTTP_KEEPALIVE_SECONDS`` closes an idle kept-alive
connection. A connection beyond ``GRAPHRAG_HTTP_MAX_CONNECTIONS`` is answered 503 and closed as it opens:
uvicorn's own ``limit_concurrency`` answers 503 only to a request, so sockets that never send one were all
held, each a file descriptor the stores need too. Heads are also capped at h11's 16 KiB. A request that
frames its body twice (``Content-Length`` and ``Transfer-Encoding``, the shape of request smuggling) is
answered 400 and closed before any of it reaches the app (RFC 9112, 6.3).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from graphrag.config import Settings

BUSY = b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class SingleFraming(h11.Connection):
    """h11's server side, refusing a request that gives both a length and a transfer coding (h11 takes the
    coding and ignores the length, which a proxy in front may have read the other way)."""

    def next_event(self) -> h11.Event | type[h11.PAUSED] | type[h11.NEED_DATA]:
        event = super().next_event()
        if isinstance(event, h11.Request):
            names = {name.lower() for name, _ in event.headers}
            if b"content-length" in names and b"transfer-encoding" in names:
                raise h11.RemoteProtocolError("both Content-Length and Transfer-Encoding", 400)
        return event


class HeadDeadline(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is not complete in time, and one
    beyond the limit at once."""

    head_seconds: ClassVar[float]  # GRAPHRAG_HTTP_HEADER_TIMEOUT_SECONDS, set by ``uvicorn_options``
    max_connections: ClassVar[int]  # GRAPHRAG_HTTP_MAX_CONNECTIONS, likewise
    _head_timer: asyncio.TimerHandle | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = SingleFraming(h11.SERVER, self.conn._max_incomplete_event_size)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            transport.write(BUSY)
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # a head was read whole: the request is under way
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()  # the next head, on a kept-alive connection, gets the same deadline

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.head_seconds, self._late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's configuration for the HTTP server; it configures no logging of its own (the service's handler
    takes its records and strips query strings from its access lines)."""
    limits = {
        "head_seconds": settings.graphrag_http_header_timeout_seconds,
        "max_connections": settings.graphrag_http_max_connections,
    }
    protocol = type("HeadDeadline", (HeadDeadline,), limits)
    return {"log_config": None, "http": protocol, "timeout_keep_alive": settings.graphrag_http_keepalive_seconds}
