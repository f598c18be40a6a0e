"""Ingest of the bundled example pack into the real Neo4j and each vector engine (the embedded shard, a server)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from graphrag.config import Settings
from graphrag.stores.edge import missing
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from ingest.packs import OUTSIDE, RESTLESS_NS, StoredFile, file_stamp, open_pack, read_files
from tests.conftest import EXAMPLES, lose_vectors, vectors_where

pytestmark = pytest.mark.engines


def count(graph: GraphStore, cypher: str, **params: object) -> int:
    records, _, _ = graph._driver.execute_query(cypher, params)
    return int(records[0][0])


def test_cold_ingest_builds_typed_graph(run_ingest, graph: GraphStore, settings: Settings) -> None:
    report = run_ingest(EXAMPLES / "space-missions")

    assert report.exit_code == 0, [p.render() for p in report.errors]
    assert len(report.added) == 32
    assert report.packs[0].skipped == ["README.md"]
    assert count(graph, "MATCH (e:Entity) WHERE NOT e:Missing RETURN count(e)") == 32
    assert count(graph, "MATCH (:Pack {id: 'space-missions'})-[:CONTAINS]->(e) RETURN count(e)") == 32
    assert count(graph, "MATCH (m:Mission) RETURN count(m)") == 7
    assert (
        count(graph, "MATCH (:Entity {id: 'SM.MISSION.APOLLO11'})-[:LAUNCHED_BY]->(v:LaunchVehicle) RETURN count(v)")
        == 1
    )
    # an inverse name in frontmatter is stored in the declared direction
    assert (
        count(
            graph,
            "MATCH (:Entity {id: 'SM.PERSON.GAGARIN'})<-[:CREWED_BY]-(:Entity {id: 'SM.MISSION.VOSTOK1'}) RETURN count(*)",
        )
        == 1
    )
    # the deliberate dangling links became placeholders
    missing = {d.target for d in report.dangling}
    assert missing == {"SM.PERSON.COLLINS", "SM.AGENCY.GRUMMAN"}
    assert count(graph, "MATCH (m:Entity:Missing) RETURN count(m)") == 2
    # links carry weight, note and provenance
    records, _, _ = graph._driver.execute_query(
        "MATCH (:Entity {id: 'SM.MISSION.APOLLO11'})-[r:CARRIES]->() RETURN r.weight AS w, r.note AS n, r.declared_in AS d"
    )
    assert records[0].data() == {"w": 1.0, "n": "the lunar module", "d": "missions/apollo-11.md"}
    # a chain of four hops
    assert (
        count(
            graph,
            "MATCH (:Entity {id: 'SM.MISSION.LUNA9'})-[:PART_OF]->()-[:OPERATED_BY]->()-[:LED_BY]->(p {id: 'SM.PERSON.KOROLEV'}) "
            "RETURN count(p)",
        )
        == 1
    )
    with VectorStore.open(settings) as vectors:
        payloads = vectors.payloads()
    assert len(payloads) == 32
    assert payloads["SM.BODY.MOON"]["kind"] == "body"


def test_second_run_writes_nothing(run_ingest, graph: GraphStore) -> None:
    run_ingest(EXAMPLES / "space-missions")
    before = count(graph, "MATCH (e:Entity {id: 'SM.BODY.MOON'}) RETURN e.revision")

    report = run_ingest(EXAMPLES / "space-missions")

    assert (report.added, report.updated, report.removed, report.embedded) == ([], [], [], 0)
    assert report.unchanged == 32
    assert count(graph, "MATCH (e:Entity {id: 'SM.BODY.MOON'}) RETURN e.revision") == before


def come_to_rest() -> None:
    """Files written just now get no stamp (packs.RESTLESS_NS): wait until they would."""
    time.sleep(RESTLESS_NS / 1e9 + 0.1)


def stored_files(graph: GraphStore) -> dict[str, StoredFile]:
    rows = graph.read("ingest_stored_entities", packs=["space-missions"])
    return {row["path"]: StoredFile(row["sha256"], row["stamp"]) for row in rows}


def test_a_file_whose_stamp_holds_is_taken_as_stored_unread(run_ingest, pack_copy: Path, graph: GraphStore) -> None:
    come_to_rest()
    run_ingest(pack_copy)
    stored = stored_files(graph)
    moon = "bodies/moon.md"
    assert stored[moon].stamp == file_stamp(pack_copy / moon, time.time_ns())

    pack = open_pack(pack_copy)
    read_files(pack, {**stored, moon: StoredFile("0" * 64, stored[moon].stamp)})

    # a stored hash that is not the file's is kept: the file was not read
    assert {f.path: f.sha256 for f in pack.files}[moon] == "0" * 64


def test_a_file_whose_stamp_changed_is_read_again(
    run_ingest, pack_copy: Path, graph: GraphStore, tmp_path: Path
) -> None:
    come_to_rest()
    run_ingest(pack_copy)
    moon, saturn = pack_copy / "bodies" / "moon.md", pack_copy / "vehicles" / "saturn-v.md"
    os.utime(moon)  # touched: the same content under a new stamp
    outside = tmp_path / "outside.md"
    outside.write_bytes(saturn.read_bytes())
    saturn.unlink()
    saturn.symlink_to(outside)  # the same content through a link out of the pack
    come_to_rest()

    report = run_ingest(pack_copy)

    assert [(p.path, p.message) for p in report.errors] == [("vehicles/saturn-v.md", OUTSIDE)]
    assert (report.updated, report.unchanged) == ([], 31)  # saturn-v.md keeps its stored version
    assert stored_files(graph)["bodies/moon.md"].stamp == file_stamp(moon, time.time_ns())


def test_a_lost_vector_collection_is_rebuilt_by_an_ingest_that_changes_nothing(
    run_ingest, graph: GraphStore, settings: Settings
) -> None:
    run_ingest(EXAMPLES / "space-missions")
    lose_vectors(settings)

    report = run_ingest(EXAMPLES / "space-missions")

    assert report.reindexed == missing(vectors_where(settings))
    assert report.embedded == 32
    with VectorStore.open(settings) as vectors:
        assert len(vectors.payloads()) == 32


def test_a_rebuilt_collection_holds_the_vectors_of_packs_the_run_did_not_ingest(
    run_ingest, tmp_path: Path, settings: Settings
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "pack.yaml").write_text("id: other\n")
    (other / "a.md").write_text("---\nid: OT.A\ntitle: Apollo guidance\nsummary: The onboard computer.\n---\n")
    (other / "b.md").write_text("---\nid: OT.B\ntitle: Lunar rover\n---\nA car on the Moon.\n")
    run_ingest(EXAMPLES / "space-missions", other)
    with VectorStore.open(settings) as vectors:
        _, payloads, matrix = vectors.snapshot()
    before = {p["id"]: (p, row) for p, row in zip(payloads, matrix, strict=True) if p["pack"] == "other"}
    lose_vectors(settings)

    report = run_ingest(EXAMPLES / "space-missions")  # the other pack's files are not read

    assert report.embedded == 34
    with VectorStore.open(settings) as vectors:
        _, payloads, matrix = vectors.snapshot()
    after = {p["id"]: (p, row) for p, row in zip(payloads, matrix, strict=True) if p["pack"] == "other"}
    assert after.keys() == before.keys() == {"OT.A", "OT.B"}
    for entity, (payload, row) in after.items():
        assert payload == before[entity][0]
        assert float(row @ before[entity][1]) > 0.9999  # made of the same text as from the files
    assert run_ingest(other).embedded == 0  # its embedder was recorded again


def test_edit_reembeds_one_entity(run_ingest, pack_copy: Path, graph: GraphStore) -> None:
    run_ingest(pack_copy)
    moon = pack_copy / "bodies" / "moon.md"
    moon.write_text(moon.read_text().replace("only natural satellite", "only large natural satellite"))

    report = run_ingest(pack_copy)

    assert report.updated == ["SM.BODY.MOON"]
    assert report.embedded == 1
    assert count(graph, "MATCH (e:Entity {id: 'SM.BODY.MOON'}) RETURN e.revision") == 2


def test_deleted_file_removes_node_links_and_vector(run_ingest, pack_copy: Path, graph: GraphStore, settings) -> None:
    run_ingest(pack_copy)
    (pack_copy / "vehicles" / "saturn-v.md").unlink()

    report = run_ingest(pack_copy)

    assert report.removed == ["SM.VEHICLE.SATURNV"]
    # other entities still link to it: it falls back to a placeholder without its own links
    assert count(graph, "MATCH (e:Entity:Missing {id: 'SM.VEHICLE.SATURNV'}) RETURN count(e)") == 1
    assert count(graph, "MATCH (:Entity {id: 'SM.VEHICLE.SATURNV'})-[r]->() RETURN count(r)") == 0
    assert count(graph, "MATCH (e:Entity {id: 'SM.VEHICLE.SATURNV'}) RETURN size(labels(e))") == 2
    with VectorStore.open(settings) as vectors:
        assert "SM.VEHICLE.SATURNV" not in vectors.payloads()


def test_broken_yaml_keeps_previous_version(run_ingest, pack_copy: Path, graph: GraphStore) -> None:
    run_ingest(pack_copy)
    moon = pack_copy / "bodies" / "moon.md"
    moon.write_text(moon.read_text().replace("kind: body", "kind: body: broken"))

    report = run_ingest(pack_copy)

    assert report.exit_code == 1
    assert [p.render() for p in report.errors] == [
        "bodies/moon.md:3: error[Y002] [kind]: invalid YAML: mapping values are not allowed in this context; the value "
        "holds ': ', which YAML reads as a new key: quote the whole value, as in kind: \"body: broken\""
    ]
    assert report.removed == []
    records, _, _ = graph._driver.execute_query("MATCH (e:Entity {id: 'SM.BODY.MOON'}) RETURN e.kind AS k")
    assert records[0]["k"] == "body"


def test_placeholder_becomes_real_entity(run_ingest, pack_copy: Path, graph: GraphStore) -> None:
    run_ingest(pack_copy)
    (pack_copy / "people" / "collins.md").write_text(
        "---\nid: SM.PERSON.COLLINS\nkind: person\ntitle: Michael Collins\n---\nCommand module pilot of Apollo 11.\n"
    )

    report = run_ingest(pack_copy)

    assert report.added == ["SM.PERSON.COLLINS"]
    assert count(graph, "MATCH (e:Person:Entity {id: 'SM.PERSON.COLLINS'}) WHERE NOT e:Missing RETURN count(e)") == 1
    assert (
        count(
            graph,
            "MATCH (:Entity {id: 'SM.MISSION.APOLLO11'})-[:CREWED_BY]->(c {id: 'SM.PERSON.COLLINS'}) RETURN count(c)",
        )
        == 1
    )
    assert {d.target for d in report.dangling} == {"SM.AGENCY.GRUMMAN"}
