"""``POST /github/webhook``: GitHub's push deliveries queue the team sources of the pushed repository.

A delivery counts only when its ``X-Hub-Signature-256`` is the HMAC SHA-256 of the body under
``GITHUB_WEBHOOK_SECRET`` (compared in constant time) and neither its ``X-GitHub-Delivery`` id (in any case)
nor its body was seen before: the signature does not cover the id, so a signed body sent again under a fresh
id is a replay too. The body is read only up to GitHub's 25 MB, whatever the transfer encoding, before the
signature is checked: an unauthenticated caller costs at most that much memory. Only pushes to the default
branch index anything; the answer comes at once (GitHub waits 10 s at most) and the indexing runs in the
background.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from collections.abc import Callable

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse

from graphrag.errors import StoreUnavailable
from graphrag.server.context import Services
from graphrag.stores import answering

MAX_BODY_BYTES = 25 * 2**20  # GitHub caps deliveries at 25 MB
DELIVERY = re.compile(r"^[A-Za-z0-9-]{1,100}$")
log = logging.getLogger(__name__)


class _Repository(BaseModel):
    full_name: str
    default_branch: str


class _Push(BaseModel):
    ref: str
    repository: _Repository


class Webhook:
    """Checks, deduplicates and routes deliveries; ``opened`` gives the server's stores (None before start)."""

    def __init__(self, secret: str | None, opened: Callable[[], Services | None]) -> None:
        self._secret = secret.encode() if secret else None
        self._opened = opened

    async def receive(self, request: Request) -> JSONResponse:
        if self._secret is None:
            return _answer(404, "not_found", "this server takes no GitHub webhooks (GITHUB_WEBHOOK_SECRET is unset)")
        body = await _capped_body(request)
        if body is None:
            log.warning("github webhook: a delivery larger than GitHub sends was refused")
            return _answer(413, "invalid_argument", "the delivery is larger than GitHub sends", close=True)
        expected = "sha256=" + hmac.new(self._secret, body, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected.encode(), request.headers.get("x-hub-signature-256", "").encode()):
            log.warning("github webhook: a delivery with a missing or wrong signature was refused")
            return _answer(401, "forbidden", "the signature does not match")
        delivery = request.headers.get("x-github-delivery", "").lower()
        if not DELIVERY.fullmatch(delivery):
            return _answer(400, "invalid_argument", "X-GitHub-Delivery is missing or malformed")
        found = self._opened()
        if found is None:
            return _answer(503, "unavailable", "the server is starting")
        digest = hashlib.sha256(body).hexdigest()
        try:
            with answering():
                first = found.graph.write("github_delivery_once", id=delivery, digest=digest)[0]["first"]
        except StoreUnavailable as exc:
            return _answer(503, "unavailable", str(exc).removeprefix("unavailable: "))
        if not first:
            log.warning("github webhook: a replayed delivery was refused")
            return _answer(409, "forbidden", "this delivery was already received")
        event = request.headers.get("x-github-event", "")
        if event != "push":
            return JSONResponse({"status": "ignored", "event": event[:50]}, status_code=202)
        try:
            push = _Push.model_validate_json(body)  # pydantic's parser bounds nesting (no RecursionError)
        except ValidationError:
            return _answer(400, "invalid_argument", "the push payload is not GitHub's")
        if push.ref != f"refs/heads/{push.repository.default_branch}":
            return JSONResponse({"status": "ignored", "queued": []}, status_code=202)
        queued = [s for s in found.teams.sources() if s.repository == push.repository.full_name]
        for source in queued:
            found.indexer.enqueue(source)
        log.info("github webhook: push queued %d team sources", len(queued))
        return JSONResponse({"status": "queued", "queued": [s.id for s in queued]}, status_code=202)


async def _capped_body(request: Request) -> bytearray | None:
    """The body, or None past ``MAX_BODY_BYTES``: a declared length is refused before reading, a chunked
    body as soon as it passes the cap (the rest is never read). Not copied to bytes: that would double it."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return None
    return body


def _answer(status: int, code: str, message: str, close: bool = False) -> JSONResponse:
    """An error answer; ``close`` ends the connection, so that a refused body is not read to its end."""
    headers = {"Connection": "close"} if close else None
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)
