"""Hostile files through the real ingest (Neo4j, embedded Qdrant): the good files of the pack ingest,
each bad one is reported with its path, and a rejected file's previous version stays."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from graphrag.config import Settings
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from ingest.limits import MAX_FILE_BYTES
from ingest.packs import OUTSIDE, PackError
from ingest.pipeline import check
from ingest.writing import by_cost
from tests.ingest.test_hostile_files import HOSTILE, HOSTILE_PATHS
from tests.ingest.test_ingest_stores import count

GOOD_A = "---\nid: GOOD.A\nkind: note\ntitle: Good A\nrelated:\n  uses: GOOD.B\n---\nA body.\n"
GOOD_B_CR = "---\rid: GOOD.B\rkind: note\rtitle: Good B\r---\r\r# Good B\r\rAn old Mac file.\r"
# Nodes a kind must never become: the memory's, or a pack other than this one.
SERVICE_NODES = "MATCH (n) WHERE n:MemoryRecord OR n:Project OR n:Workspace OR (n:Pack AND n.id <> 'p') RETURN count(n)"


def put(root: Path, rel: str, content: str | bytes) -> str:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return rel


def hostile_pack(root: Path) -> list[str]:
    """Two good files and one file per hostile class; returns the paths the report must reject."""
    put(root, "good/a.md", GOOD_A)
    put(root, "good/b.md", GOOD_B_CR)
    bad = [put(root, HOSTILE_PATHS.get(name, f"bad/{name}.md"), raw) for name, (raw, _) in HOSTILE.items()]
    bad.append(put(root, "bad/too-large.md", b"---\nid: BIG\n---\n" + b"x" * MAX_FILE_BYTES))
    fd = os.open(os.fsencode(root / "bad") + b"/caf\xe9.md", os.O_WRONLY | os.O_CREAT)  # a Latin-1 file name
    os.write(fd, b"---\nid: LATIN1.NAME\n---\n")
    os.close(fd)
    (root / "bad" / "unreadable.md").symlink_to("/proc/self/mem")  # outside the pack: refused, never opened
    return [*bad, "bad/caf\ufffd.md", "bad/unreadable.md"]


def test_good_files_ingest_and_every_hostile_file_is_reported(
    run_ingest, tmp_path: Path, graph: GraphStore, settings: Settings
) -> None:
    bad = hostile_pack(tmp_path / "p")

    report = run_ingest(tmp_path / "p")

    assert report.exit_code == 1
    assert sorted(report.added) == ["GOOD.A", "GOOD.B"] and report.links == 1
    assert sorted({p.path for p in report.errors}) == sorted(bad)
    assert all(
        p.line is not None for p in report.errors if not p.path.startswith(("bad/too", "bad/caf", "bad/un", "nnn"))
    )
    assert f"bad/unreadable.md: error[F001]: {OUTSIDE}" in [p.render() for p in report.errors]
    assert count(graph, "MATCH (e:Entity) WHERE NOT e:Missing RETURN count(e)") == 2
    assert count(graph, "MATCH (:Entity {id: 'GOOD.A'})-[:USES]->(:Note {id: 'GOOD.B'}) RETURN count(*)") == 1
    assert count(graph, SERVICE_NODES) == 0
    with VectorStore.open(settings) as vectors:
        assert sorted(vectors.payloads()) == ["GOOD.A", "GOOD.B"]
    # `graphrag check` reports the same, without any store.
    assert [p.render() for p in check([tmp_path / "p"]).errors] == [p.render() for p in report.errors]


def test_reserved_kind_is_rejected_and_the_previous_version_stays(
    run_ingest, tmp_path: Path, graph: GraphStore, settings: Settings
) -> None:
    """Were `memory_record` a label, this file would plant a record in another project's memory search."""
    note = "---\nid: X.1\nkind: {kind}\ntitle: {title}\nproject: other\nworkspace: default\n---\nBody.\n"
    put(tmp_path / "p", "x.md", note.format(kind="note", title="First"))
    run_ingest(tmp_path / "p")
    put(tmp_path / "p", "x.md", note.format(kind="memory_record", title="Second"))

    report = run_ingest(tmp_path / "p")

    assert [p.render() for p in report.errors] == [
        "x.md:3: error[E003] [kind]: kind 'memory_record' would be the label :MemoryRecord, which the service uses for its own nodes"
    ]
    assert (report.added, report.updated, report.removed) == ([], [], [])
    records, _, _ = graph._driver.execute_query("MATCH (e:Entity {id: 'X.1'}) RETURN labels(e) AS l, e.title AS t")
    assert (sorted(records[0]["l"]), records[0]["t"]) == (["Entity", "Note"], "First")
    assert count(graph, SERVICE_NODES) == 0
    with VectorStore.open(settings) as vectors:
        assert vectors.payloads()["X.1"]["kind"] == "note"


def test_a_write_batch_is_split_into_transactions_within_budget() -> None:
    """A dozen files of the largest size in one transaction exhausted Neo4j's transaction memory."""
    assert list(by_cost([5, 5, 5, 20, 1], cost=lambda n: n, budget=10)) == [[5, 5], [5], [20], [1]]


SECRET = "---\nid: SECRET.PASSWORD\ntitle: root password\n---\nhunter2\n"


def linked_out_pack(tmp_path: Path) -> Path:
    """A pack whose links lead to a password file and a folder outside it, and links inside it."""
    put(tmp_path / "outside", "password.md", SECRET)
    put(tmp_path / "outside", "folder/password.md", SECRET)
    root = tmp_path / "p"
    put(root, "notes/real.md", "---\ntitle: Real\n---\nInside the pack.\n")
    (root / "leak.md").symlink_to(tmp_path / "outside" / "password.md")
    (root / "notes" / "leak-again.md").symlink_to(tmp_path / "outside" / "password.md")
    (root / "linked").symlink_to(tmp_path / "outside" / "folder")
    (root / "notes" / "alias.md").symlink_to("real.md")
    (root / "mirror").symlink_to("notes")  # inside: not entered, its files are read where they are
    return root


def test_a_link_out_of_the_pack_is_refused_before_it_is_read(
    run_ingest, tmp_path: Path, graph: GraphStore, settings: Settings
) -> None:
    """Two links to one outside file once printed its id in the duplicate-id error; a linked folder was
    skipped in silence. A linked file that stays inside the pack is read under its own path; a linked folder
    inside it is not entered."""
    root = linked_out_pack(tmp_path)

    report = run_ingest(root)

    assert [p.render() for p in report.errors] == [
        f"leak.md: error[F001]: {OUTSIDE}",
        f"linked/: error[F001]: {OUTSIDE}",
        f"notes/leak-again.md: error[F001]: {OUTSIDE}",
    ]
    assert sorted(report.added) == ["p/notes/alias", "p/notes/real"]
    shown = report.model_dump_json()
    assert "SECRET" not in shown and "password" not in shown.replace("/password.md", "")
    assert (
        count(graph, "MATCH (e:Entity) WHERE e.id STARTS WITH 'SECRET' OR e.body CONTAINS 'hunter2' RETURN count(e)")
        == 0
    )
    with VectorStore.open(settings) as vectors:
        assert sorted(vectors.payloads()) == ["p/notes/alias", "p/notes/real"]
    assert [p.render() for p in check([root]).errors] == [p.render() for p in report.errors]


def test_a_manifest_linked_out_of_the_pack_is_refused(tmp_path: Path) -> None:
    put(tmp_path / "outside", "pack.yaml", "id: secret-pack\n")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "pack.yaml").symlink_to(tmp_path / "outside" / "pack.yaml")

    with pytest.raises(PackError, match=re.escape(f"p/pack.yaml: {OUTSIDE}")) as raised:
        check([tmp_path / "p"])

    assert "secret-pack" not in str(raised.value)
