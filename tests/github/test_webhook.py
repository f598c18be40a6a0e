"""The push webhook under abuse, over real HTTP against the real server and Neo4j: bodies past GitHub's
25 MB are refused while they arrive, signed bodies are not taken twice, and a hostile signed body is a
coded 400, never a 500."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.server.app import create_server
from graphrag.server.webhook import MAX_BODY_BYTES
from graphrag.stores.graph import GraphStore
from tests.github.double import sign_delivery
from tests.server.conftest import served_over_http
from tests.server.test_stores import BoltProxy

SECRET = "webhook-secret-for-tests"
MIB = 2**20
PUSH = {"ref": "refs/heads/main", "repository": {"full_name": "acme/none", "default_branch": "main"}}


@pytest.fixture
async def server(settings: Settings, graph: GraphStore, embedder: Embedder) -> AsyncIterator[str]:
    hooked = settings.model_copy(update={"github_webhook_secret": SecretStr(SECRET)})
    async with served_over_http(create_server(hooked, embedder=embedder)) as base:
        yield base


async def deliver(base: str, headers: dict[str, str], body: Any) -> httpx.Response:
    async with httpx.AsyncClient(timeout=60) as http:
        return await http.post(f"{base}/github/webhook", headers=headers, content=body)


async def post_raw(base: str, head: dict[str, str], chunks: int) -> tuple[bytes, int]:
    """POST ``chunks`` MiB chunked on a raw socket, reading while it sends (a server that stops reading and
    closes resets the connection, and the answer must not be lost in that); the answer and the MiB sent."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    lines = [f"{name}: {value}" for name, value in head.items()]
    writer.write(("\r\n".join(["POST /github/webhook HTTP/1.1", "Host: x", *lines]) + "\r\n\r\n").encode())
    answer = asyncio.create_task(reader.read(1000))
    sent = 0
    with contextlib.suppress(ConnectionError):
        while sent < chunks and not answer.done():
            writer.write(b"100000\r\n" + b" " * MIB + b"\r\n")
            await writer.drain()
            sent += 1
    try:
        return await asyncio.wait_for(answer, timeout=10), sent
    finally:
        writer.close()


async def test_a_body_past_the_cap_is_refused_before_it_is_read_whole(server: str) -> None:
    headers, _ = sign_delivery("not-the-secret", "push", PUSH)
    answer, sent = await post_raw(server, {**headers, "Transfer-Encoding": "chunked"}, 200)
    assert answer.startswith(b"HTTP/1.1 413 ") and b'"error":"invalid_argument"' in answer, answer[:300]
    assert sent < MAX_BODY_BYTES // MIB + 40, f"{sent} MiB were sent before the answer"

    declared, sent = await post_raw(server, {**headers, "Content-Length": str(MAX_BODY_BYTES + 1)}, 0)
    assert declared.startswith(b"HTTP/1.1 413 "), declared[:300]  # answered without waiting for the body


async def test_a_signed_body_is_taken_once_whatever_its_delivery_id(server: str) -> None:
    headers, body = sign_delivery(SECRET, "push", PUSH)
    assert (await deliver(server, headers, body)).status_code == 202
    fresh_id, _ = sign_delivery(SECRET, "push", PUSH)
    again = await deliver(server, {**headers, "X-GitHub-Delivery": fresh_id["X-GitHub-Delivery"]}, body)
    assert (again.status_code, again.json()["error"]) == (409, "forbidden")
    other, other_body = sign_delivery(SECRET, "push", {**PUSH, "after": "0" * 40})
    recased = await deliver(server, {**other, "X-GitHub-Delivery": headers["X-GitHub-Delivery"].upper()}, other_body)
    assert recased.status_code == 409
    new, new_body = sign_delivery(SECRET, "push", {**PUSH, "after": "1" * 40})
    assert (await deliver(server, new, new_body)).status_code == 202  # a new body under a new id counts


async def test_a_signed_body_nested_deep_is_a_coded_400(server: str) -> None:
    nested = b'{"ref": "refs/heads/main", "deep": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    headers, body = sign_delivery(SECRET, "push", nested)
    answer = await deliver(server, headers, body)
    assert (answer.status_code, answer.json()["error"]) == (400, "invalid_argument")


async def test_a_delivery_taken_by_one_server_is_refused_by_another(
    settings: Settings, graph: GraphStore, embedder: Embedder
) -> None:
    """Behind a load balancer a replay reaches another server: the record of taken deliveries is in Neo4j."""
    hooked = settings.model_copy(update={"github_webhook_secret": SecretStr(SECRET)})
    async with (
        served_over_http(create_server(hooked, embedder=embedder)) as first,
        served_over_http(create_server(hooked, embedder=embedder)) as second,
    ):
        headers, body = sign_delivery(SECRET, "push", PUSH)
        assert (await deliver(first, headers, body)).status_code == 202
        again = await deliver(second, headers, body)
        fresh_id, _ = sign_delivery(SECRET, "push", PUSH)
        renamed = await deliver(second, {**headers, "X-GitHub-Delivery": fresh_id["X-GitHub-Delivery"]}, body)

    assert (again.status_code, again.json()["error"]) == (409, "forbidden")
    assert renamed.status_code == 409


async def test_a_signed_delivery_while_neo4j_is_gone_is_a_coded_503(
    settings: Settings, graph: GraphStore, embedder: Embedder
) -> None:
    host, port = settings.neo4j_uri.removeprefix("bolt://").split(":")
    proxy = BoltProxy((host, int(port)))
    hooked = settings.model_copy(
        update={"github_webhook_secret": SecretStr(SECRET), "neo4j_uri": f"bolt://127.0.0.1:{proxy.port}"}
    )
    async with served_over_http(create_server(hooked, embedder=embedder)) as base:
        headers, body = sign_delivery(SECRET, "push", PUSH)
        assert (await deliver(base, headers, body)).status_code == 202
        proxy.sever()
        headers, body = sign_delivery(SECRET, "push", PUSH)
        answer = await deliver(base, headers, body)
    assert (answer.status_code, answer.json()["error"]) == (503, "unavailable")
    assert str(proxy.port) not in answer.text
