"""Ingest of the bundled example pack into the real Neo4j and embedded Qdrant."""

from __future__ import annotations

from pathlib import Path

from graphrag.config import Settings
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from tests.conftest import EXAMPLES


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
        "bodies/moon.md:3: error [kind]: invalid YAML: mapping values are not allowed in this context; the value "
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
