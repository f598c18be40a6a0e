"""Team sources end to end: the real server over HTTP with bearer tokens, FastMCP's client, real Neo4j and
Qdrant, and the local GitHub double with three accounts (write, read, no access).

A local pack links into the team pack (``LOCAL.ROCKET`` -> ``TEAM.ENGINE``) and the team pack links back to
it, so walks that pass through the team source are exercised from both sides.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from fastmcp import Client
from fastmcp.exceptions import ToolError
from pydantic import SecretStr

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from ingest.pipeline import ingest
from tests.github.conftest import READER, REPOSITORY, STRANGER, WRITER
from tests.github.double import GitHubDouble, blob_sha, sign_delivery
from tests.memory.conftest import save, search
from tests.server.conftest import served_over_http, write_entity

SOURCE = f"github:{REPOSITORY}"
SECRET = "webhook-secret-for-tests"
TOKENS = {
    "projects": {"acme": {"active": True}},
    "tokens": [
        {"name": login, "token": f"{login}-bearer-token-0001", "project": "acme"}
        for login in (WRITER, READER, STRANGER)
    ],
}


def team_file(entity_id: str, title: str, summary: str, related: str = "", body: str = "") -> bytes:
    lines = ["---", f"id: {entity_id}", "kind: component", f"title: {title}", f"summary: {summary}"]
    if related:
        lines.append(f"related: {{depends_on: [{related}]}}")
    return ("\n".join([*lines, "---", body or f"{title} is described here.", ""])).encode()


@pytest.fixture
def team_repo(github: GitHubDouble) -> GitHubDouble:
    github.write(REPOSITORY, "pack.yaml", b"title: Handbook\n")
    github.write(
        REPOSITORY, "engine.md", team_file("TEAM.ENGINE", "Quasar engine", "The Quasar engine burns kerosene.")
    )
    github.write(
        REPOSITORY,
        "pump.md",
        team_file("TEAM.PUMP", "Turbopump", "The turbopump feeds the Quasar engine.", related="TEAM.ENGINE"),
    )
    github.write(REPOSITORY, "README.txt", b"not a pack file")
    return github


@pytest.fixture
def local_pack(tmp_path: Path, settings: Settings, embedder: Embedder, graph: GraphStore) -> Path:
    root = tmp_path / "local"
    root.mkdir()
    write_entity(
        root,
        "LOCAL.ROCKET",
        kind="vehicle",
        title="Nova rocket",
        summary="The Nova rocket",
        related={"depends_on": ["TEAM.ENGINE"]},
    )
    ingest([root], settings, embedder=embedder, graph=graph)
    return root


@pytest.fixture
def budget() -> int:
    return Settings().graphrag_response_budget_bytes


@pytest.fixture
async def server(
    github_settings: Settings, graph: GraphStore, embedder: Embedder, tmp_path: Path, local_pack: Path, budget: int
) -> AsyncIterator[str]:
    tokens_file = tmp_path / "tokens.yaml"
    tokens_file.write_text(yaml.safe_dump(TOKENS), encoding="utf-8")
    settings = github_settings.model_copy(
        update={
            "graphrag_tokens_file": tokens_file,
            "github_webhook_secret": SecretStr(SECRET),
            "graphrag_response_budget_bytes": budget,
        }
    )
    async with served_over_http(create_server(settings, embedder=embedder, transport="http")) as base:
        yield base


def as_account(base: str) -> Callable[[str], Client[Any]]:
    return lambda login: Client(f"{base}/mcp", auth=f"{login}-bearer-token-0001")


async def call(client: Client[Any], tool: str, **arguments: Any) -> Any:
    return (await client.call_tool(tool, arguments)).structured_content


async def connect(base: str, github: GitHubDouble, login: str, source: bool = True) -> None:
    async with as_account(base)(login) as client:
        await call(client, "github_connect", user_token=github.user_token(login))
        if source:
            await call(client, "connect_source", repository=REPOSITORY)


async def sees(client: Client[Any]) -> dict[str, Any]:
    """Everything one caller can learn of the team entities through each pack tool and the resource."""
    search = await call(client, "pack_search", query="Quasar engine turbopump", limit=20)
    context = await call(client, "pack_context", question="What does the Nova rocket's Quasar engine burn?")
    walk = await call(client, "pack_graph", id="LOCAL.ROCKET", depth=3)
    path = await call(client, "pack_graph", id="LOCAL.ROCKET", path=["depends_on", "^depends_on"])
    rocket = await call(client, "pack_get", id="LOCAL.ROCKET")
    try:
        engine = (await call(client, "pack_get", id="TEAM.ENGINE"))["title"]
    except ToolError as exc:
        engine = str(exc).split(":")[0]
    try:
        resource = (await client.read_resource("pack://TEAM.PUMP"))[0].text.split("\n")[0]  # type: ignore[union-attr]
    except Exception as exc:  # fastmcp's client raises its protocol error for a failed resource read
        resource = str(exc).split(":")[0]
    team = [e["id"] for e in context["entities"] if e["id"].startswith("TEAM.")]
    team += [p["path"] for p in context["passages"] if p["path"] in ("engine.md", "pump.md")]
    team += [step for path in context["paths"] for step in path if step.startswith("TEAM.")]
    return {
        "search": sorted(h["id"] for h in search["results"] if h["id"].startswith("TEAM.")),
        "context": bool(team),
        "walk": sorted(n["id"] for n in walk["nodes"] if n["id"].startswith("TEAM.")),
        "path": path["reached"],
        "links": [link["id"] for link in rocket["outgoing"]],
        "get": engine,
        "resource": resource,
    }


FULL = {
    "search": ["TEAM.ENGINE", "TEAM.PUMP"],
    "context": True,
    "walk": ["TEAM.ENGINE", "TEAM.PUMP"],
    "path": ["LOCAL.ROCKET", "TEAM.PUMP"],
    "links": ["TEAM.ENGINE"],
    "get": "Quasar engine",
    "resource": "# Turbopump",
}
NOTHING = {
    "search": [],
    "context": False,
    "walk": [],
    "path": [],
    "links": [],
    "get": "not_found",
    "resource": "not_found",
}


async def test_each_account_sees_exactly_what_github_lets_it_read(
    server: str, team_repo: GitHubDouble, github_settings: Settings, embedder: Embedder
) -> None:
    for login in (WRITER, READER):
        await connect(server, team_repo, login)
    async with as_account(server)(STRANGER) as stranger:
        await call(stranger, "github_connect", user_token=team_repo.user_token(STRANGER))
        with pytest.raises(ToolError, match=r"^forbidden: GitHub does not let you read acme/handbook$"):
            await call(stranger, "connect_source", repository=REPOSITORY)
    for login in (WRITER, READER):
        async with as_account(server)(login) as client:
            assert await sees(client) == FULL, login
    async with as_account(server)(STRANGER) as stranger:
        assert await sees(stranger) == NOTHING
    async with Client(create_server(github_settings, embedder=embedder)) as local:  # stdio's local owner
        assert await sees(local) == NOTHING
        assert "connect_source" not in {tool.name for tool in await local.list_tools()}  # it could only refuse


async def test_revoked_read_closes_the_source_at_the_very_next_call(server: str, team_repo: GitHubDouble) -> None:
    await connect(server, team_repo, READER)
    async with as_account(server)(READER) as reader:
        assert await sees(reader) == FULL
        team_repo.set_permission(REPOSITORY, READER, None)
        assert await sees(reader) == NOTHING
        with pytest.raises(ToolError, match=r"^forbidden: GitHub does not let you read acme/handbook$"):
            await call(reader, "reindex_source", source=SOURCE)


async def test_a_hidden_packs_relation_names_and_descriptions_reach_only_its_readers(
    server: str, team_repo: GitHubDouble
) -> None:
    """A team pack's declared inverse and description are its own words: a caller who may not read the pack
    finds them neither in pack_catalog nor in the hint of an unknown relation."""
    team_repo.write(
        REPOSITORY,
        "pack.yaml",
        b"title: Handbook\nrelations:\n  depends_on: {inverse: fuels_quietly, description: Quietly feeds a rocket}\n",
    )
    await connect(server, team_repo, READER)
    async with as_account(server)(READER) as reader:  # the server reads the relation vocabulary every 2 s
        for _ in range(50):
            if "fuels_quietly" in (await call(reader, "pack_catalog"))["inverses"]:
                break
            await asyncio.sleep(0.2)
    for login, readable in ((READER, True), (STRANGER, False)):
        async with as_account(server)(login) as client:
            catalog = await call(client, "pack_catalog")
            assert ("fuels_quietly" in catalog["inverses"]) is readable, login
            with pytest.raises(ToolError) as refused:
                await call(client, "pack_graph", id="LOCAL.ROCKET", path=["fuels_quietl"])
            assert ("fuels_quietly" in str(refused.value)) is readable, login


async def test_a_file_changed_in_github_is_not_served_from_the_stale_index(
    server: str, team_repo: GitHubDouble
) -> None:
    await connect(server, team_repo, READER)
    async with as_account(server)(READER) as reader:  # unchanged: one commit sha is asked, no tree is listed
        asked = len(team_repo.requests)
        assert (await call(reader, "pack_search", query="Quasar engine turbopump", limit=20))["stale"] == []
        assert [r.split(" ")[1].split("/")[-1] for r in team_repo.requests[asked:]] == [
            "access_tokens",
            "permission",
            "HEAD",
        ]
    team_repo.write(REPOSITORY, "engine.md", team_file("TEAM.ENGINE", "Quasar engine", "Now it burns methane."))
    async with as_account(server)(READER) as reader:
        found = await call(reader, "pack_search", query="Quasar engine turbopump", limit=20)
        assert [h["id"] for h in found["results"] if h["id"].startswith("TEAM.")] == ["TEAM.PUMP"]
        assert found["stale"] == ["TEAM.ENGINE"]
        with pytest.raises(ToolError, match=r"^document_changed: entity 'TEAM.ENGINE': its file changed in GitHub"):
            await call(reader, "pack_get", id="TEAM.ENGINE")
        report = await call(reader, "reindex_source", source=SOURCE)  # the stale hit queued one already
        assert (report["added"], report["removed"], report["errors"]) == (0, 0, [])
        assert (await call(reader, "pack_get", id="TEAM.ENGINE"))["summary"] == "Now it burns methane."


def blob_downloads(github: GitHubDouble) -> list[str]:
    return [r for r in github.requests if "/git/blobs/" in r]


async def deliver(base: str, headers: dict[str, str], body: bytes) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        return await http.post(f"{base}/github/webhook", headers=headers, content=body)


def push(repository: str = REPOSITORY) -> dict[str, Any]:
    return {"ref": "refs/heads/main", "repository": {"full_name": repository, "default_branch": "main"}}


async def test_a_signed_push_reindexes_only_the_changed_files(server: str, team_repo: GitHubDouble) -> None:
    await connect(server, team_repo, WRITER)
    downloads = len(blob_downloads(team_repo))
    team_repo.write(REPOSITORY, "pump.md", team_file("TEAM.PUMP", "Turbopump", "A faster turbopump."))
    headers, body = sign_delivery(SECRET, "push", push())
    answer = await deliver(server, headers, body)
    assert (answer.status_code, answer.json()) == (202, {"status": "queued", "queued": [SOURCE]})
    async with as_account(server)(WRITER) as writer:
        for _ in range(300):
            with contextlib.suppress(ToolError):  # document_changed until the queued indexing is done
                if (await call(writer, "pack_get", id="TEAM.PUMP"))["summary"] == "A faster turbopump.":
                    break
            await asyncio.sleep(0.1)
        assert (await call(writer, "pack_get", id="TEAM.PUMP"))["summary"] == "A faster turbopump."
    assert len(blob_downloads(team_repo)) == downloads + 1  # pump.md alone was downloaded again
    replayed = await deliver(server, headers, body)
    assert replayed.status_code == 409
    unsigned = await deliver(
        server, {**headers, "X-Hub-Signature-256": "sha256=" + "0" * 64, "X-GitHub-Delivery": "x1"}, body
    )
    assert unsigned.status_code == 401
    missing = {k: v for k, v in headers.items() if k != "X-Hub-Signature-256"}
    assert (await deliver(server, {**missing, "X-GitHub-Delivery": "x2"}, body)).status_code == 401


async def test_an_empty_repository_fills_on_its_first_push(server: str, github: GitHubDouble) -> None:
    await connect(server, github, WRITER)
    async with as_account(server)(WRITER) as writer:
        assert (await call(writer, "pack_search", query="Quasar engine", limit=5))["results"][0]["id"] == "LOCAL.ROCKET"
        github.write(REPOSITORY, "engine.md", team_file("TEAM.ENGINE", "Quasar engine", "It burns kerosene."))
        headers, body = sign_delivery(SECRET, "push", push())
        assert (await deliver(server, headers, body)).status_code == 202
        for _ in range(300):
            found = await call(writer, "pack_search", query="Quasar engine", limit=5)
            if "TEAM.ENGINE" in [h["id"] for h in found["results"]]:
                break
            await asyncio.sleep(0.1)
        assert "TEAM.ENGINE" in [h["id"] for h in found["results"]]


async def test_disconnect_leaves_nothing_of_the_source(
    server: str, team_repo: GitHubDouble, graph: GraphStore, settings: Settings
) -> None:
    await connect(server, team_repo, WRITER)
    await connect(server, team_repo, READER)
    before = graph.read("github_source_left", id=SOURCE)[0]
    assert before == {"entities": 2, "passages": before["passages"], "links": 1, "packs": 1} and before["passages"] > 0
    async with as_account(server)(READER) as reader:
        assert await call(reader, "disconnect_source", source=SOURCE) == {"source": SOURCE, "removed_index": False}
        assert await sees(reader) == NOTHING  # no longer connected: no longer seen
    async with as_account(server)(WRITER) as writer:
        assert await call(writer, "disconnect_source", source=SOURCE) == {"source": SOURCE, "removed_index": True}
        # the local pack's link to TEAM.ENGINE stays, dangling: its target is a placeholder, like any missing id
        dangling = {"walk": ["TEAM.ENGINE"], "path": ["LOCAL.ROCKET"], "links": ["TEAM.ENGINE"], "get": "TEAM.ENGINE"}
        assert await sees(writer) == {**NOTHING, **dangling}
    assert graph.read("github_source_left", id=SOURCE)[0] == {
        "entities": 0,
        "passages": 0,
        "links": 0,
        "packs": 0,
    }
    with VectorStore.open(settings) as vectors:
        assert vectors.fingerprints([SOURCE]) == {}


async def test_memory_records_naming_a_team_file_follow_the_repository_access(
    server: str, team_repo: GitHubDouble
) -> None:
    await connect(server, team_repo, READER)
    async with as_account(server)(READER) as reader:
        team = await save(reader, "the quasar engine burns kerosene", source_id=f"{SOURCE}/engine.md")
        local = await save(reader, "the quasar mock-up is in hall 2", source_id="notes/hall.md")
        assert {h["id"] for h in await search(reader, "quasar")} == {team["id"], local["id"]}
    async with as_account(server)(STRANGER) as stranger:  # same project, same workspace, no access to the repository
        assert [h["id"] for h in await search(stranger, "quasar")] == [local["id"]]
        with pytest.raises(ToolError, match=r"^not_found: no records of source"):
            await stranger.call_tool("validate_memory", {"source_id": f"{SOURCE}/engine.md"})
    team_repo.set_permission(REPOSITORY, READER, None)
    async with as_account(server)(READER) as reader:
        assert [h["id"] for h in await search(reader, "quasar")] == [local["id"]]


async def document(client: Client[Any], **arguments: Any) -> Any:
    result = await client.call_tool("get_document", {"source": SOURCE, **arguments})
    text = result.content[0].text  # type: ignore[union-attr]
    return json.loads(text) if arguments.get("cursor") or arguments.get("include_sha") else text


async def test_put_document_with_a_stale_sha_is_a_conflict_and_changes_nothing(
    server: str, team_repo: GitHubDouble
) -> None:
    for login in (WRITER, READER):
        await connect(server, team_repo, login)
    async with as_account(server)(WRITER) as writer:
        read = await document(writer, filename="engine.md", include_sha=True)
        assert read["content"].encode() == team_repo.files[REPOSITORY]["engine.md"]
        teammate = team_file("TEAM.ENGINE", "Quasar engine", "A teammate's edit.")
        team_repo.write(REPOSITORY, "engine.md", teammate)
        with pytest.raises(ToolError, match=r"^conflict: 'engine.md' in acme/handbook is no longer at sha"):
            await call(writer, "put_document", source=SOURCE, filename="engine.md", content="mine", sha=read["sha"])
        assert team_repo.files[REPOSITORY]["engine.md"] == teammate
        fresh = await document(writer, filename="engine.md", include_sha=True)
        written = await call(writer, "put_document", source=SOURCE, filename="engine.md",
                             content=fresh["content"] + "More.\n", sha=fresh["sha"])  # fmt: skip
        assert team_repo.files[REPOSITORY]["engine.md"] == teammate + b"More.\n"
        assert written == {"source": SOURCE, "filename": "engine.md", "sha": blob_sha(teammate + b"More.\n")}
    async with as_account(server)(READER) as reader:
        assert await document(reader, filename="engine.md") == (teammate + b"More.\n").decode()
        with pytest.raises(ToolError, match=r"^forbidden: GitHub does not let you write acme/handbook$"):
            await call(reader, "put_document", source=SOURCE, filename="engine.md", content="x", sha=written["sha"])
        with pytest.raises(ToolError, match=r"^invalid_argument: "):
            await document(reader, filename="../escape.md")
    async with as_account(server)(STRANGER) as stranger:
        await call(stranger, "github_connect", user_token=team_repo.user_token(STRANGER))
        with pytest.raises(ToolError, match=r"^not_found: github:acme/handbook is not one of your connected sources"):
            await document(stranger, filename="engine.md")


@pytest.mark.parametrize("budget", [200_000])
async def test_a_file_of_several_megabytes_is_reassembled_exactly_from_live_pages(
    server: str, team_repo: GitHubDouble
) -> None:
    line = 'Ünïcödé "quoted" \\ back\tslash, 日本語 and emoji 🚀 at line {}\n'
    big = "".join(line.format(i) for i in range(45_000)).encode()
    assert len(big) > 3 * 2**20
    team_repo.write(REPOSITORY, "big.md", big)
    await connect(server, team_repo, READER)
    async with as_account(server)(READER) as reader:
        with pytest.raises(ToolError, match=r"^response_too_large: "):
            await document(reader, filename="big.md", include_sha=True)
        pages: list[str] = []
        page = await document(reader, filename="big.md", cursor="start", include_sha=True)
        while True:
            assert (page["read_mode"], page["content_scope"]) == ("live", "full_file")
            pages.append(page["content"])
            if page["complete"]:
                break
            page = await document(reader, filename="big.md", cursor=page["next_cursor"], include_sha=True)
        assert page["next_cursor"] is None and len(pages) > 10
        assert "".join(pages).encode() == big and page["sha"] == blob_sha(big)
        first = await document(reader, filename="big.md", cursor="start")
        team_repo.set_permission(REPOSITORY, READER, None)  # a cursor is no authorisation
        with pytest.raises(ToolError, match=r"^forbidden: GitHub does not let you read acme/handbook$"):
            await document(reader, filename="big.md", cursor=first["next_cursor"])
