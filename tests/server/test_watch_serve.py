"""``graphrag serve --watch``: saves are ingested inside the server and searchable through the MCP client
without a reload, and what each save changed is logged.

The server is built as ``graphrag serve --watch`` builds it (``create_server`` with the ``watching`` task),
over the real stores, and files are saved for real in a copy of the example pack.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from graphrag.cli.serve import watching
from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.server.app import create_server
from graphrag.stores.graph import GraphStore
from ingest.pipeline import ingest
from tests.ingest.test_crash_consistency import assert_same, snapshot

DEADLINE = 60.0  # seconds; a functional bound only (the speed is measured by bench/watch_latency.py)


async def hits(client: Client[Any], query: str, mode: str = "vector") -> list[dict[str, Any]]:
    result = await client.call_tool("pack_search", {"query": query, "mode": mode, "limit": 3})
    assert isinstance(result.structured_content, dict)
    found: list[dict[str, Any]] = result.structured_content["results"]
    return found


async def until(check: Any) -> Any:
    """``await check()`` until it is truthy, or fail after DEADLINE."""
    started = time.monotonic()
    while time.monotonic() - started < DEADLINE:
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.05)
    pytest.fail("the server did not see the save")


async def test_saves_are_searchable_from_the_servers_own_ingest(
    graph: GraphStore, settings: Settings, embedder: Embedder, pack_copy: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="graphrag.cli.serve")
    mcp = create_server(settings, embedder=embedder, background=watching((pack_copy,), settings))
    async with Client(mcp) as client:

        async def moon_first() -> bool:
            found = await hits(client, "Earth's only natural satellite")
            return bool(found) and found[0]["id"] == "SM.BODY.MOON"

        await until(moon_first)  # the first ingest ran inside the server
        await until(lambda: asyncio.sleep(0, result=any("watch: watching" in r.message for r in caplog.records)))

        moon = pack_copy / "bodies" / "moon.md"
        new = "A grey airless world of basalt maria, visited by twelve astronauts between 1969 and 1972."
        moon.write_text(
            moon.read_text().replace(
                "Earth's only natural satellite and the destination of the Apollo and Luna programmes.", new
            )
        )

        async def new_summary() -> bool:
            found = await hits(client, "grey airless world of basalt maria")  # vector mode: the shard the server holds
            return bool(found) and found[0]["summary"] == new

        await until(new_summary)

        (pack_copy / "bodies" / "mars.md").write_text(
            "---\nid: SM.BODY.MARS\nkind: body\ntitle: Mars\nsummary: The red planet, reached by landers since 1971.\n"
            "related: {studied_by: [SM.MISSION.MARS3]}\n---\n"
        )

        async def mars() -> bool:
            return any(h["id"] == "SM.BODY.MARS" for h in await hits(client, "the red planet"))

        await until(mars)
        (pack_copy / "bodies" / "mars.md").unlink()

        async def no_mars() -> bool:
            return not any(h["id"] == "SM.BODY.MARS" for h in await hits(client, "the red planet"))

        await until(no_mars)

    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "saved bodies/moon.md" in logged
    assert "new dangling: SM.MISSION.MARS3 -[studies]-> SM.BODY.MARS (bodies/mars.md)" in logged
    assert "- link SM.MISSION.MARS3 -[studies]-> SM.BODY.MARS (bodies/mars.md)" in logged


def replace(path: Path, text: str) -> None:
    """Save as an editor does, in one rename: the watcher never sees a half-written file."""
    draft = path.with_name(f".{path.name}.draft")  # hidden: not a pack file
    draft.write_text(text)
    os.replace(draft, path)


MOON = "bodies/moon.md"
EAGLE = "craft/eagle.md"  # stored, then rejected while it takes the Moon's id: read again on each save
SAVES: list[tuple[str, Callable[[Path], None]]] = [
    ("an edit", lambda pack: replace(pack / MOON, (pack / MOON).read_text().replace('title: "Moon"', "title: Selene"))),
    (
        "a new file",
        lambda pack: replace(
            pack / "bodies" / "mars.md",
            "---\nid: SM.BODY.MARS\nkind: body\ntitle: Mars\nrelated: {studied_by: [SM.MISSION.APOLLO11]}\n---\n",
        ),
    ),
    (
        "a new dangling link",
        lambda pack: replace(
            pack / "bodies" / "mars.md",
            "---\nid: SM.BODY.MARS\nkind: body\ntitle: Mars\nrelated: {studied_by: [SM.MISSION.MARS3]}\n---\n",
        ),
    ),
    ("a deletion", lambda pack: (pack / "craft" / "lunokhod-1.md").unlink()),  # Luna 17 links to it
    (
        "a duplicate id",
        lambda pack: replace(pack / EAGLE, (pack / EAGLE).read_text().replace("SM.CRAFT.EAGLE", "SM.BODY.MOON")),
    ),
    ("the duplicate's other file deleted", lambda pack: (pack / MOON).unlink()),  # eagle.md's file takes the id
]


async def test_each_save_leaves_the_graph_a_full_ingest_makes(
    graph: GraphStore,
    settings: Settings,
    embedder: Embedder,
    pack_copy: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A save's ingest reads only the saved files (and those the last run rejected): after each save, Neo4j
    and the vectors are as full ingests of the same files, one after each save, leave them (history matters:
    a duplicate id keeps the version stored before)."""
    caplog.set_level("INFO", logger="graphrag.cli.serve")

    def logged(line: str) -> int:
        return sum(r.getMessage().startswith(line) for r in caplog.records)

    files = [tmp_path / "files-0"]
    shutil.copytree(pack_copy, files[0])
    watched: list[dict[str, Any]] = []
    mcp = create_server(settings, embedder=embedder, background=watching((pack_copy,), settings))
    async with Client(mcp) as client:
        await until(lambda: hits(client, "Earth's only natural satellite"))  # the first ingest ran
        await until(lambda: asyncio.sleep(0, result=logged("watch: watching")))
        for _, save in SAVES:

            async def ingested(before: int = logged("watch: saved")) -> bool:
                return logged("watch: saved") > before

            save(pack_copy)
            await until(ingested)
            watched.append(snapshot(graph, settings.graphrag_home))
            files.append(tmp_path / f"files-{len(files)}")
            shutil.copytree(pack_copy, files[-1])

    graph.run_auto_commit("test_wipe")
    graph.write("test_mark")
    reference, home = tmp_path / "reference" / pack_copy.name, tmp_path / "reference-home"
    for (name, _), before, after, state in zip(SAVES, files, files[1:], watched, strict=False):
        if not reference.exists():
            shutil.copytree(before, reference)
            ingest([reference], Settings(graphrag_home=home), embedder=embedder, graph=graph)
        shutil.rmtree(reference)
        shutil.copytree(after, reference)
        report = ingest([reference], Settings(graphrag_home=home), embedder=embedder, graph=graph)
        assert report.added or report.updated or report.removed or report.errors, name
        assert_same(state, snapshot(graph, home))
