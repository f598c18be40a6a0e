"""Nothing lost, nothing orphaned: conflicts keep what was stored, a pack id stays with its folder, and
whatever a failed run left behind is gone after the next one (real Neo4j, embedded Qdrant)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphrag.cli.packs import render
from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from ingest.packs import PackError
from ingest.plan import plan
from ingest.writing import vector_payload
from tests.ingest.test_hostile_ingest import put
from tests.ingest.test_ingest_stores import count

NOTE = "---\nid: {id}\ntitle: {title}\n{extra}---\nBody of {title}.\n"
REAL = "MATCH (e:Entity {{id: '{id}'}}) WHERE NOT e:Missing RETURN count(e)"


def note(entity_id: str, title: str, extra: str = "") -> str:
    return NOTE.format(id=entity_id, title=title, extra=extra)


def test_copied_id_keeps_both_previous_entities_and_their_links(run_ingest, tmp_path: Path, graph: GraphStore) -> None:
    pack = tmp_path / "p"
    put(pack, "a.md", note("A", "Alpha"))
    put(pack, "b.md", note("B", "Beta"))
    put(pack, "c.md", note("C", "Gamma", "related:\n  uses: [A, B]\n"))
    run_ingest(pack)
    put(pack, "b.md", note("A", "Beta"))  # an author copied a.md's id into b.md

    report = run_ingest(pack)

    kept = "the version ingested before, from p:a.md, is kept"
    assert sorted(p.render() for p in report.errors) == [
        f"{path}: error[E002] [id]: id 'A' is defined by several files: p:a.md, p:b.md; {kept}"
        for path in ("a.md", "b.md:2")
    ]
    assert (report.added, report.updated, report.removed, report.dangling) == ([], [], [], [])
    assert count(graph, REAL.format(id="B")) == 1
    assert count(graph, "MATCH (:Entity {id: 'C'})-[:USES]->(t) WHERE NOT t:Missing RETURN count(t)") == 2


def test_id_owned_by_another_pack_is_reported_for_both_files(run_ingest, tmp_path: Path, graph: GraphStore) -> None:
    put(tmp_path / "one", "x.md", note("X", "From one"))
    run_ingest(tmp_path / "one")
    put(tmp_path / "two", "y.md", note("Y", "Why"))
    run_ingest(tmp_path / "two")
    put(tmp_path / "two", "y.md", note("X", "From two"))

    report = run_ingest(tmp_path / "two")

    assert sorted((p.pack, p.render()) for p in report.errors) == [
        (
            pack,
            f"{path}: error[E002] [id]: id 'X' is defined by several files: two:y.md, one:x.md; "
            "the version ingested before, from one:x.md, is kept",
        )
        for pack, path in (("one", "x.md"), ("two", "y.md:2"))
    ]
    # for a person, the file of the pack not read names its pack: two lines, two files
    shown = sorted(line.split(": error")[0] for line in render(report).splitlines() if "[E002]" in line)
    assert shown == ["one:x.md", "y.md:2"]
    assert report.removed == []
    records, _, _ = graph._driver.execute_query("MATCH (e:Entity) WHERE NOT e:Missing RETURN e.id, e.pack, e.title")
    assert sorted(tuple(r) for r in records) == [("X", "one", "From one"), ("Y", "two", "Why")]


def test_pack_id_of_another_folder_is_refused_until_that_folder_is_gone(
    run_ingest, tmp_path: Path, graph: GraphStore
) -> None:
    put(tmp_path / "first", "pack.yaml", "id: shared\n")
    put(tmp_path / "first", "a.md", note("A", "Alpha"))
    run_ingest(tmp_path / "first")
    put(tmp_path / "second", "pack.yaml", "id: shared\n")
    put(tmp_path / "second", "b.md", note("B", "Beta"))

    with pytest.raises(
        PackError, match=r"second/pack.yaml: pack id 'shared' belongs to the pack ingested from .*first"
    ):
        run_ingest(tmp_path / "second")
    assert count(graph, REAL.format(id="A")) == 1 and count(graph, REAL.format(id="B")) == 0

    (tmp_path / "first").rename(tmp_path / "elsewhere")  # moved: a folder that no longer holds the pack
    (tmp_path / "elsewhere" / "pack.yaml").write_text("id: renamed\n")
    report = run_ingest(tmp_path / "second")
    assert (report.added, report.removed) == (["B"], ["A"])


def test_file_that_loses_its_frontmatter_is_reported_as_a_removal(run_ingest, tmp_path: Path) -> None:
    put(tmp_path / "p", "a.md", note("A", "Alpha"))
    run_ingest(tmp_path / "p")
    put(tmp_path / "p", "a.md", "# Alpha\n\nJust a page now.\n")

    report = run_ingest(tmp_path / "p")

    assert report.removed == ["A"]
    assert [p.render() for p in report.warnings] == [
        "a.md: warning[F005]: the file no longer opens with frontmatter: entity 'A' is removed"
    ]


def test_old_links_beyond_one_delete_batch_are_replaced(run_ingest, tmp_path: Path, graph: GraphStore) -> None:
    targets = ", ".join(f"T{i}" for i in range(12_000))  # more links than one delete transaction takes
    put(tmp_path / "p", "hub.md", note("HUB", "Hub", f"related:\n  uses: [{targets}]\n"))
    assert run_ingest(tmp_path / "p").links == 12_000
    put(tmp_path / "p", "hub.md", note("HUB", "Hub", "related:\n  uses: [T7]\n"))

    report = run_ingest(tmp_path / "p")

    assert report.links == 1
    assert count(graph, "MATCH ()-[r]->() WHERE r.declared_by = 'HUB' RETURN count(r)") == 1
    assert count(graph, "MATCH (m:Missing) RETURN count(m)") == 1  # the other placeholders were pruned


def _ghost_vectors(settings: Settings, embedder: Embedder, rows: list[dict[str, str]]) -> None:
    """Vectors a failed run could leave: written to Qdrant, their graph batch never committed."""
    with VectorStore.open(settings) as vectors:
        vectors.ensure_collection(embedder.id, embedder.dimension)
        vectors.upsert(rows, np.ones((len(rows), embedder.dimension), dtype=np.float32))


def test_vectors_left_by_a_failed_run_are_gone_after_the_next_run(
    run_ingest, tmp_path: Path, graph: GraphStore, settings: Settings, embedder: Embedder
) -> None:
    pack = tmp_path / "p"
    put(pack, "a.md", note("A", "Alpha"))
    put(pack, "b.md", note("B", "Beta"))
    _ghost_vectors(settings, embedder, [{"id": "NEW", "pack": "p", "sha256": "x"}])  # a first run that failed
    run_ingest(pack)
    clean = _fingerprints(settings)
    assert sorted(clean) == ["A", "B"]
    # A later run failed after writing vectors: one for an entity whose file then went, one of a version
    # of B that the graph never got (its file is back as it was).
    graph.write("ingest_mark_vectors_pending", packs=["p"])
    _ghost_vectors(
        settings, embedder, [{"id": "GONE", "pack": "p", "sha256": "y"}, {"id": "B", "pack": "p", "sha256": "z"}]
    )

    report = run_ingest(pack)

    assert (report.added, report.updated, report.removed, report.embedded) == ([], [], [], 1)
    assert _fingerprints(settings) == clean
    assert count(graph, "MATCH (p:Pack {id: 'p'}) WHERE p.vectors_pending RETURN count(p)") == 0
    assert run_ingest(pack).embedded == 0  # settled: the next run does not look again


def _fingerprints(settings: Settings) -> dict[str, str]:
    with VectorStore.open(settings) as vectors:
        return vectors.fingerprints(["p"])


def test_plan_reembeds_only_the_named_entities(tmp_path: Path) -> None:
    from ingest.pipeline import read_packs

    put(tmp_path / "p", "a.md", note("A", "Alpha"))
    put(tmp_path / "p", "b.md", note("B", "Beta"))
    work = plan(read_packs([tmp_path / "p"]), {}, [], set(), reembed={"B"})
    assert [vector_payload(e)["id"] for e in work.embed] == ["A", "B"]  # both new; B is named as well
