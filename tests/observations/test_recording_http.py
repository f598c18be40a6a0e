"""Recording through the real server over HTTP (``create_server``, uvicorn, FastMCP's client with bearer tokens),
the real Neo4j and embedder, and the journal on the disposable PostgreSQL as its runtime role."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml
from click.testing import CliRunner
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from fastmcp.exceptions import ToolError
from pydantic import SecretStr

from graphrag.cli import main
from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.observations.admission import uuid7
from graphrag.observations.model import sha256
from graphrag.server.app import create_server
from tests.conftest import EXAMPLES
from tests.observations.conftest import KEY
from tests.observations.database import JournalDsns
from tests.server.conftest import free_port, refuses_past_limits, served_over_http

TOKENS = {
    "projects": {"acme": {"active": True}, "globex": {"active": True}},
    "tokens": [
        {"name": "pilot", "token": "acme-pilot-token-0001", "project": "acme"},
        {"name": "other", "token": "acme-other-token-0001", "project": "acme"},
        {"name": "pilot", "token": "globex-pilot-token-01", "project": "globex"},
    ],
}
PILOT, OTHER, GLOBEX = "acme-pilot-token-0001", "acme-other-token-0001", "globex-pilot-token-01"


def journal_settings(settings: Settings, dsn: str, mode: str = "text", **more: Any) -> Settings:
    return settings.model_copy(
        update={
            "graphrag_observations_dsn": SecretStr(dsn),
            "graphrag_observations_mode": mode,
            "graphrag_observations_key": SecretStr(KEY),
            "graphrag_observations_allowlist": frozenset({"acme/pilot", "globex/pilot"}),
            **more,
        }
    )


@pytest.fixture
def serve(run_ingest, embedder: Embedder, settings: Settings, tmp_path: Path):  # type: ignore[no-untyped-def]
    """``serve(dsn, mode, tokens=True)``: the example pack ingested and a journaled server over HTTP."""
    run_ingest(EXAMPLES / "space-missions")
    tokens = tmp_path / "tokens.yaml"
    tokens.write_text(yaml.safe_dump(TOKENS), encoding="utf-8")

    def make(dsn: str, mode: str = "text", with_tokens: bool = True) -> AsyncIterator[str]:
        more = {"graphrag_tokens_file": tokens} if with_tokens else {}
        return served_over_http(create_server(journal_settings(settings, dsn, mode, **more), embedder=embedder))

    return make


def as_token(url: str, token: str | None, headers: dict[str, str] | None = None) -> Client[Any]:
    return Client(StreamableHttpTransport(f"{url}/mcp", headers=headers or {}, auth=token))


def stored(dsns: JournalDsns, where: str = "true") -> list[dict[str, Any]]:
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        cursor = connection.cursor(row_factory=psycopg.rows.dict_row)
        return cursor.execute(
            f"SELECT * FROM retrieval.observation WHERE {where} ORDER BY hit_kind, hit_rank"
        ).fetchall()


async def written(dsns: JournalDsns, observation_id: str, seconds: float = 10) -> list[dict[str, Any]]:
    """The rows of a scheduled write, once it has happened."""
    deadline = time.monotonic() + seconds
    while not (found := stored(dsns, f"observation_id = '{observation_id}'")) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return found


async def feedback(client: Client[Any], observation_id: str, hit_id: str, cited: bool | None = True) -> dict[str, Any]:
    result = await client.call_tool(
        "retrieval_feedback", {"observation_id": observation_id, "hit_id": hit_id, "cited": cited}
    )
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def test_an_allowlisted_search_returns_observation_ids_of_durable_rows_and_feedback_binds_to_its_hits(
    serve: Callable[..., Any], dsns: JournalDsns
) -> None:
    async with serve(dsns.runtime) as url, as_token(url, PILOT) as pilot:
        result = await pilot.call_tool("pack_search", {"query": "Saturn V rocket", "limit": 3})
        hits = result.structured_content["results"]  # type: ignore[index]
        observation_id = result.meta["observation_id"]  # type: ignore[index]
        assert [hit["observation_id"] for hit in hits] == [observation_id] * 3
        rows = await written(dsns, observation_id)

        assert [(row["hit_kind"], row["hit_id"], row["hit_rank"]) for row in rows] == [
            ("entity", hit["id"], rank) for rank, hit in enumerate(hits, 1)
        ]
        assert [row["content_sha256"] for row in rows] == [bytes.fromhex(hit["sha256"]) for hit in hits]
        assert [row["returned_excerpt_sha256"] for row in rows] == [sha256(hit["summary"]) for hit in hits]
        assert [row["score"] for row in rows] == [hit["score"] for hit in hits]
        first = rows[0]
        assert (first["account_id"], first["tool"], first["search_mode"], first["query_text"]) == (
            "acme/pilot", "pack_search", "hybrid", "Saturn V rocket",
        )  # fmt: skip
        assert first["returned_count"] == 3 and first["available_count"] >= 3 and first["corpus_version"] is None
        assert abs(first["observed_at"] - datetime.now(UTC)) < timedelta(minutes=1)

        assert await feedback(pilot, observation_id, hits[1]["id"]) == {"recorded": True, "reason": None}
        assert await feedback(pilot, observation_id, "SM.MISSION.LUNA9") == {"recorded": False, "reason": "not_found"}
        assert await feedback(pilot, str(uuid7(datetime.now(UTC))), hits[0]["id"]) == {
            "recorded": False,
            "reason": "not_found",
        }
        old = uuid7(datetime.now(UTC) - timedelta(days=91))
        assert await feedback(pilot, str(old), hits[0]["id"]) == {"recorded": False, "reason": "expired"}
        with pytest.raises(ToolError, match=r"^invalid_argument: observation_id is not a UUID"):
            await feedback(pilot, "not-an-id", hits[0]["id"])
        async with as_token(url, GLOBEX) as globex:  # another allowlisted account: not its observation
            assert await feedback(globex, observation_id, hits[0]["id"]) == {"recorded": False, "reason": "not_found"}
        async with as_token(url, OTHER) as other:
            assert await feedback(other, observation_id, hits[0]["id"]) == {"recorded": False, "reason": "not_enrolled"}
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        assert connection.execute("SELECT hit_id, account_id, cited FROM retrieval.citation_feedback").fetchall() == [
            (hits[1]["id"], "acme/pilot", True)
        ]


async def test_feedback_arguments_past_their_limit_are_invalid(serve: Callable[..., Any], dsns: JournalDsns) -> None:
    async with serve(dsns.runtime) as url, as_token(url, PILOT) as pilot:
        tools = [t for t in await pilot.list_tools() if t.name == "retrieval_feedback"]
        await refuses_past_limits(
            pilot, tools, {"retrieval_feedback": {"observation_id": str(uuid.uuid4()), "hit_id": "x"}}
        )


async def test_pack_context_records_entities_and_passages_and_a_passage_takes_feedback(
    serve: Callable[..., Any], dsns: JournalDsns
) -> None:
    async with serve(dsns.runtime) as url, as_token(url, PILOT) as pilot:
        result = await pilot.call_tool("pack_context", {"question": "Who flew on Apollo 11?"})
        answer = result.structured_content
        assert answer is not None and answer["passages"]
        observation_id = result.meta["observation_id"]  # type: ignore[index]
        assert {e["observation_id"] for e in answer["entities"]} == {observation_id}
        passage = answer["passages"][0]
        assert passage["hit_id"] == f"{passage['id']}#L{passage['lines'][0]}-L{passage['lines'][1]}"
        rows = await written(dsns, observation_id)
        assert [r["hit_id"] for r in rows if r["hit_kind"] == "entity"] == [e["id"] for e in answer["entities"]]
        assert [r["hit_id"] for r in rows if r["hit_kind"] == "passage"] == [p["hit_id"] for p in answer["passages"]]
        assert rows[-1]["content_sha256"] == bytes.fromhex(answer["passages"][-1]["sha256"])
        assert await feedback(pilot, observation_id, passage["hit_id"], None) == {"recorded": True, "reason": None}


async def test_spoofed_identity_unlisted_and_anonymous_callers_record_nothing(
    serve: Callable[..., Any], dsns: JournalDsns, settings: Settings, embedder: Embedder
) -> None:
    async with serve(dsns.runtime) as url:
        spoofing = {"x-user-id": "acme/pilot", "x-account": "acme/pilot", "x-forwarded-user": "acme/pilot"}
        async with as_token(url, OTHER, spoofing) as other:
            result = await other.call_tool("pack_search", {"query": "Saturn V rocket"})
            assert result.meta is None or "observation_id" not in result.meta
            assert all("observation_id" not in hit for hit in result.structured_content["results"])  # type: ignore[index]
            with pytest.raises(ToolError, match=r"^invalid_argument: account: Unexpected keyword argument"):
                await other.call_tool("pack_search", {"query": "Saturn V rocket", "account": "acme/pilot"})
    async with serve(dsns.runtime, with_tokens=False) as url, as_token(url, None, spoofing) as anonymous:
        result = await anonymous.call_tool("pack_context", {"question": "Saturn V rocket"})
        assert result.meta is None or "observation_id" not in result.meta
    in_process = create_server(journal_settings(settings, dsns.runtime), embedder=embedder)  # no HTTP: like stdio
    async with Client(in_process) as local:
        result = await local.call_tool("pack_search", {"query": "Saturn V rocket"})
        assert all("observation_id" not in hit for hit in result.structured_content["results"])  # type: ignore[index]
    await asyncio.sleep(0.5)
    assert stored(dsns) == []


async def test_text_mode_records_nothing_the_filter_refuses_and_hash_only_keeps_no_text(
    serve: Callable[..., Any], dsns: JournalDsns
) -> None:
    async with serve(dsns.runtime) as url, as_token(url, PILOT) as pilot:
        refused = await pilot.call_tool("pack_search", {"query": "apollo password: hunter2hunter2"})
        assert refused.meta is None or "observation_id" not in refused.meta
    async with serve(dsns.runtime, mode="hash-only") as url, as_token(url, PILOT) as pilot:
        result = await pilot.call_tool("pack_search", {"query": "write to me at ann@example.org about Saturn V"})
        rows = await written(dsns, result.meta["observation_id"])  # type: ignore[index]
    assert rows and {(row["query_text"], row["text_expires_at"]) for row in rows} == {(None, None)}
    assert len({row["observation_id"] for row in stored(dsns)}) == 1


async def test_mode_off_records_nothing_refuses_feedback_and_still_runs_the_cleanup(
    serve: Callable[..., Any], dsns: JournalDsns
) -> None:
    async with serve(dsns.runtime, mode="off") as url, as_token(url, PILOT) as pilot:
        result = await pilot.call_tool("pack_search", {"query": "Saturn V rocket"})
        assert result.meta is None or "observation_id" not in result.meta
        assert await feedback(pilot, str(uuid.uuid4()), "X") == {"recorded": False, "reason": "disabled"}
        deadline = time.monotonic() + 10
        with psycopg.connect(dsns.admin, autocommit=True) as connection:
            while time.monotonic() < deadline:
                state = connection.execute("SELECT last_success_at FROM retrieval.maintenance_state").fetchone()
                if state and state[0] is not None:
                    break
                await asyncio.sleep(0.1)
    assert state is not None and state[0] is not None  # the cleanup ran at start, though nothing is collected


async def test_search_answers_when_the_journals_database_is_unreachable(serve: Callable[..., Any]) -> None:
    unreachable = f"host=127.0.0.1 port={free_port()} dbname=nowhere user=nobody"
    async with serve(unreachable) as url, as_token(url, PILOT) as pilot:
        for _ in range(3):
            result = await pilot.call_tool("pack_search", {"query": "Saturn V rocket", "limit": 2})
            hits = result.structured_content["results"]  # type: ignore[index]
            assert [hit["id"] for hit in hits][:1] == ["SM.VEHICLE.SATURNV"]
            assert hits[0]["observation_id"] == result.meta["observation_id"]  # type: ignore[index]
        answer = await feedback(pilot, hits[0]["observation_id"], hits[0]["id"])
        assert answer["recorded"] is False and answer["reason"] in {"pending", "unavailable"}


def test_expire_command_deletes_an_expired_row_physically(dsns: JournalDsns) -> None:
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        connection.execute(
            """INSERT INTO retrieval.observation (observation_id, hit_id, account_id, observed_at, tool, search_mode,
                query_hash, hit_kind, hit_rank, excerpt_truncated, returned_count, omitted_count, available_count)
            VALUES (gen_random_uuid(), 'A', 'acme/pilot', now() - interval '2161 hours', 'pack_search', 'hybrid',
                    sha256('q'), 'entity', 1, false, 1, 0, 1)"""
        )
    result = CliRunner().invoke(main, ["observations", "expire"], env={"GRAPHRAG_OBSERVATIONS_DSN": dsns.runtime})
    assert (result.exit_code, result.stdout) == (0, "deleted or scrubbed 1 rows\n")
    assert stored(dsns) == []


def test_a_half_configured_journal_refuses_to_start(settings: Settings) -> None:
    from graphrag.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match="GRAPHRAG_OBSERVATIONS_MODE=text needs GRAPHRAG_OBSERVATIONS_DSN"):
        create_server(settings.model_copy(update={"graphrag_observations_mode": "text"}))
    short_key = journal_settings(settings, "host=127.0.0.1", graphrag_observations_key=SecretStr("short"))
    with pytest.raises(InvalidArgument, match="needs GRAPHRAG_OBSERVATIONS_KEY of at least 32 characters"):
        create_server(short_key)
