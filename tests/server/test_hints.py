"""Answers that tell an agent where things are: a relation path that reaches nothing names the relations that do
leave, an id named outside the packs asked is pointed at, a lone value where a list is due shows the list, and
the catalog says which pack declares each relation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastmcp import Client

from tests.conftest import EXAMPLES
from tests.server.conftest import write_entity
from tests.server.test_pack_tools import call, error


async def two_packs(run_ingest, client_for, tmp_path: Path) -> Client[Any]:  # type: ignore[no-untyped-def]
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "pack.yaml").write_text("id: notes\nrelations:\n  uses: {inverse: used_by}\n")
    write_entity(notes, "NT.TOOL", "A tool.", title="Sextant", summary="A navigation tool.")
    write_entity(notes, "NT.PLAN", "A plan.", title="Flight plan", summary="A plan.", related={"uses": ["NT.TOOL"]})
    run_ingest(EXAMPLES / "space-missions", notes)
    client: Client[Any] = client_for()
    return client


async def test_a_relation_path_that_reaches_nothing_names_the_relations_that_leave(
    run_ingest,
    client_for,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    async with await two_packs(run_ingest, client_for, tmp_path) as client:
        answer = await call(client, "pack_graph", id="SM.MISSION.APOLLO11", path=["uses"])
        found = await call(client, "pack_graph", id="SM.MISSION.APOLLO11", path=["part_of"])
    assert answer["reached"] == []
    hint = answer["hint"]
    assert hint.startswith("nothing is reached: no uses link leaves SM.MISSION.APOLLO11 (step 1 of 1); the relations")
    assert "part_of" in hint and "launched_by" in hint
    assert found["reached"] == ["SM.PROGRAM.APOLLO"] and "hint" not in found


async def test_an_id_named_outside_the_packs_asked_is_pointed_at(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    async with await two_packs(run_ingest, client_for, tmp_path) as client:
        context = await call(client, "pack_context", question="Who flew SM.MISSION.APOLLO11?", packs=["notes"])
        inside = await call(client, "pack_context", question="Who flew SM.MISSION.APOLLO11?", packs=["space-missions"])
    expected = (
        "SM.MISSION.APOLLO11 is in pack 'space-missions', outside the packs asked (notes): ask without packs, "
        "or add its pack"
    )
    assert context["hint"] == expected
    assert "hint" not in inside


async def test_a_lone_value_where_a_list_is_due_shows_the_list(example: Client[Any]) -> None:
    message = await error(example, "pack_search", query="rocket", kinds="standards-track")
    assert message.startswith("invalid_argument: kinds: Input should be a valid list")
    assert 'even of one item: ["standards-track"]' in message


async def test_the_catalog_says_which_pack_declares_each_relation(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    async with await two_packs(run_ingest, client_for, tmp_path) as client:
        catalog = await call(client, "pack_catalog")
    packs = {pack["id"]: pack for pack in catalog["packs"]}
    assert packs["notes"]["relations"] == {"uses": 1}
    assert "uses" not in packs["space-missions"]["relations"] and packs["space-missions"]["relations"]["part_of"] == 8
    assert catalog["relations"]["uses"] == 1 and catalog["relations"]["part_of"] == 8
