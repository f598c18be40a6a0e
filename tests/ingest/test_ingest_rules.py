"""Pack rules that need the stores: duplicate ids, model changes, renames, pack.yaml edits."""

from __future__ import annotations

from pathlib import Path

from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from tests.ingest.test_ingest_stores import count


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_two_files_with_one_id_keep_the_previous_version(run_ingest, pack_copy: Path, graph: GraphStore) -> None:
    run_ingest(pack_copy)
    write(pack_copy / "bodies" / "moon-copy.md", "---\nid: SM.BODY.MOON\nkind: body\ntitle: Another Moon\n---\n")

    report = run_ingest(pack_copy)

    assert report.exit_code == 1
    assert sorted(p.path for p in report.errors) == ["bodies/moon-copy.md", "bodies/moon.md"]
    assert "bodies/moon.md" in report.errors[0].message and "bodies/moon-copy.md" in report.errors[0].message
    assert report.removed == []
    records, _, _ = graph._driver.execute_query("MATCH (e:Entity {id: 'SM.BODY.MOON'}) RETURN e.title AS t")
    assert records[0]["t"] == "Moon"


def test_two_new_files_with_one_id_ingest_neither(run_ingest, tmp_path: Path, graph: GraphStore) -> None:
    write(tmp_path / "p" / "a.md", "---\nid: SAME\n---\n")
    write(tmp_path / "p" / "b.md", "---\nid: SAME\n---\n")
    write(tmp_path / "p" / "c.md", "---\nid: OTHER\nrelated: [SAME]\n---\n")

    report = run_ingest(tmp_path / "p")

    assert report.added == ["OTHER"] and len(report.errors) == 2
    assert count(graph, "MATCH (e:Entity {id: 'SAME'}) WHERE NOT e:Missing RETURN count(e)") == 0


def test_kind_change_relabels_and_rename_moves_the_path(run_ingest, pack_copy: Path, graph: GraphStore) -> None:
    run_ingest(pack_copy)
    moon = pack_copy / "bodies" / "moon.md"
    write(pack_copy / "worlds" / "moon.md", moon.read_text().replace("kind: body", "kind: natural-satellite"))
    moon.unlink()

    report = run_ingest(pack_copy)

    assert (report.updated, report.removed) == (["SM.BODY.MOON"], [])
    records, _, _ = graph._driver.execute_query(
        "MATCH (e:Entity {id: 'SM.BODY.MOON'}) RETURN labels(e) AS l, e.path AS p"
    )
    assert sorted(records[0]["l"]) == ["Entity", "NaturalSatellite"]
    assert records[0]["p"] == "worlds/moon.md"


def test_removed_link_disappears_and_orphan_placeholder_is_pruned(
    run_ingest, pack_copy: Path, graph: GraphStore
) -> None:
    run_ingest(pack_copy)
    apollo = pack_copy / "missions" / "apollo-11.md"
    apollo.write_text(apollo.read_text().replace(', "SM.PERSON.COLLINS"', ""))

    report = run_ingest(pack_copy)

    assert report.updated == ["SM.MISSION.APOLLO11"]
    assert count(graph, "MATCH (e:Entity {id: 'SM.PERSON.COLLINS'}) RETURN count(e)") == 0
    assert {d.target for d in report.dangling} == {"SM.AGENCY.GRUMMAN"}


def test_pack_yaml_change_rereads_every_file(run_ingest, pack_copy: Path, graph: GraphStore) -> None:
    run_ingest(pack_copy)
    manifest = pack_copy / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("inverse: flew,", "inverse: flown,"))

    report = run_ingest(pack_copy)

    # The vocabulary changes how every file's links read: all are written again, none re-embedded.
    # Gagarin's file writes `flew`, no longer a declared inverse: an error of that link, which is not stored.
    assert len(report.updated) == 32 and report.embedded == 0
    assert [p.message for p in report.errors if p.link] == [
        "relation 'flew' is not declared in pack.yaml, so its links are not stored (the file is)"
    ]
    assert count(graph, "MATCH (:Entity {id: 'SM.PERSON.GAGARIN'})-[:FLEW]->() RETURN count(*)") == 0
    assert count(graph, "MATCH (e:Entity {id: 'SM.PERSON.GAGARIN'}) WHERE NOT e:Missing RETURN count(*)") == 1


def test_embedding_model_change_rebuilds_every_vector(run_ingest, pack_copy: Path, settings: Settings) -> None:
    run_ingest(pack_copy)
    other = load_embedder("use-multilingual-v3-denoise")

    report = run_ingest(pack_copy, embedder_override=other)

    assert report.embedded == 32 and report.added == report.updated == []
    assert report.reindexed is not None and "use-multilingual-v3-denoise" in report.reindexed
    with VectorStore.open(settings) as vectors:
        assert len(vectors.payloads()) == 32
    again = run_ingest(pack_copy, embedder_override=other)
    assert again.embedded == 0 and again.reindexed is None


def test_deleted_vector_collection_is_rebuilt(run_ingest, pack_copy: Path, settings: Settings) -> None:
    run_ingest(pack_copy)
    (pack_copy / "bodies" / "moon.md").write_text("---\nid: SM.BODY.MOON\ntitle: Moon\n---\n")
    import shutil

    shutil.rmtree(settings.qdrant_path)

    report = run_ingest(pack_copy)

    assert report.reindexed is not None and "missing" in report.reindexed
    assert report.embedded == 32


def test_links_resolve_by_title_or_alias_and_across_packs(run_ingest, tmp_path: Path, graph: GraphStore) -> None:
    from tests.conftest import EXAMPLES

    run_ingest(EXAMPLES / "space-missions")
    write(
        tmp_path / "notes" / "essay.md",
        "---\nid: NOTE.1\nrelated:\n  mentions: [Saturn 5, королёв, SM.BODY.MOON, free text here, NOTE.UNKNOWN]\n---\n",
    )

    report = run_ingest(tmp_path / "notes")

    assert [p.message for p in report.warnings] == [
        "target 'free text here' is neither an id nor a known title; link skipped"
    ]
    records, _, _ = graph._driver.execute_query(
        "MATCH (:Entity {id: 'NOTE.1'})-[:MENTIONS]->(t) RETURN t.id AS id ORDER BY id"
    )
    assert [r["id"] for r in records] == ["NOTE.UNKNOWN", "SM.BODY.MOON", "SM.PERSON.KOROLEV", "SM.VEHICLE.SATURNV"]
    assert [d.target for d in report.dangling] == ["NOTE.UNKNOWN"]
