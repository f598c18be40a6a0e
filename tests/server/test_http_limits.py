"""The HTTP server as ``graphrag serve`` configures uvicorn, over real sockets: a head that does not arrive
in time, a kept-alive connection left idle and connections beyond the limit are not held (uvicorn alone
held them all: 50 sockets sending a header line a second, 20 silent ones, 3,000 idle ones)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.server.app import create_server
from graphrag.server.http import uvicorn_options
from graphrag.stores.graph import GraphStore
from tests.server.conftest import served_over_http

HEAD_SECONDS = 1.0
HEALTH = b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
Socket = tuple[asyncio.StreamReader, asyncio.StreamWriter]


@pytest.fixture
async def server(settings: Settings, graph: GraphStore, embedder: Embedder) -> AsyncIterator[str]:
    limited = settings.model_copy(
        update={
            "graphrag_http_header_timeout_seconds": HEAD_SECONDS,
            "graphrag_http_keepalive_seconds": 1,
            "graphrag_http_max_connections": 3,
        }
    )
    async with served_over_http(create_server(limited, embedder=embedder), uvicorn_options(limited)) as base:
        yield base.removeprefix("http://")


async def connect(address: str) -> Socket:
    host, port = address.split(":")
    return await asyncio.open_connection(host, int(port))


async def closed_after(socket: Socket, drip: bytes = b"") -> float:
    """Seconds until the server closes ``socket``, sending ``drip`` every 0.2 s meanwhile (what it answers
    is read and dropped)."""
    reader, writer = socket
    start = time.monotonic()
    while time.monotonic() - start < 10:
        try:
            if not await asyncio.wait_for(reader.read(1000), timeout=0.2):
                return time.monotonic() - start
        except TimeoutError:
            if drip:
                writer.write(drip)
        except ConnectionError:
            return time.monotonic() - start
    raise AssertionError("the server held the connection for 10 s")


async def ask(socket: Socket, request: bytes = HEALTH) -> bytes:
    reader, writer = socket
    writer.write(request)
    return await asyncio.wait_for(reader.read(1000), timeout=5)


async def test_silent_slow_and_idle_connections_are_closed(server: str) -> None:
    silent = asyncio.create_task(closed_after(await connect(server)))
    slow = await connect(server)
    slow[1].write(b"GET /health HTTP/1.1\r\n")  # then one header line every 0.2 s, never the blank line
    dripping = asyncio.create_task(closed_after(slow, drip=b"X-Slow: 1\r\n"))
    assert HEAD_SECONDS - 0.2 < await silent < HEAD_SECONDS + 1  # the clock starts at the server's accept
    assert HEAD_SECONDS - 0.2 < await dripping < HEAD_SECONDS + 1

    kept = await connect(server)
    assert (await ask(kept)).startswith(b"HTTP/1.1 200 ")
    assert (await ask(kept)).startswith(b"HTTP/1.1 200 ")  # kept alive between requests
    assert await closed_after(kept) < 2  # then closed once idle (keep-alive 1 s)


async def test_a_connection_beyond_the_limit_is_answered_503_and_closed(server: str) -> None:
    idle = [await connect(server) for _ in range(3)]
    beyond = await connect(server)
    assert (await ask(beyond)).startswith(b"HTTP/1.1 503 ")
    assert await closed_after(beyond) < 0.5
    for socket in idle:  # the silent ones are closed at the head deadline, which frees the places
        await closed_after(socket)
    assert (await ask(await connect(server))).startswith(b"HTTP/1.1 200 ")


async def test_a_request_framing_its_body_twice_is_answered_400_and_closed(server: str) -> None:
    smuggled = (
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    )
    socket = await connect(server)
    assert (await ask(socket, smuggled)).startswith(b"HTTP/1.1 400 ")
    assert await closed_after(socket) < 0.5
    assert (await ask(await connect(server))).startswith(b"HTTP/1.1 200 ")
