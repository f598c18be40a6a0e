"""``graphrag watch``: a saved file is ingested again without a new command."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Collection
from pathlib import Path
from typing import IO

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.stores.graph import GraphStore
from ingest.packs import OUTSIDE, FileKey
from ingest.pipeline import ingest
from ingest.report import IngestReport
from ingest.watching import PackWatcher, SaveReport
from tests.ingest.test_hostile_ingest import SECRET, put
from tests.ingest.test_ingest_stores import count


def announced(stderr: IO[str]) -> None:
    """Reads stderr up to the watcher's announcement (after the first run's log line)."""
    seen = [stderr.readline() for _ in range(2)]
    assert "watching" in seen[-1], seen


def test_saved_file_is_ingested_again(graph: GraphStore, pack_copy: Path, tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "graphrag.cli", "watch", str(pack_copy)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "GRAPHRAG_HOME": str(tmp_path / "home")},
    )
    try:
        assert process.stderr is not None
        announced(process.stderr)
        moon = pack_copy / "bodies" / "moon.md"
        moon.write_text(moon.read_text().replace('title: "Moon"', 'title: "The Moon"'))
        deadline = time.monotonic() + 60
        while (
            time.monotonic() < deadline and count(graph, "MATCH (e:Entity {id: 'SM.BODY.MOON'}) RETURN e.revision") < 2
        ):
            time.sleep(0.5)
        assert count(graph, "MATCH (e:Entity {id: 'SM.BODY.MOON', title: 'The Moon'}) RETURN count(e)") == 1
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_each_save_prints_only_what_it_changed(graph: GraphStore, pack_copy: Path, tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "graphrag.cli", "watch", str(pack_copy)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "GRAPHRAG_HOME": str(tmp_path / "home")},
    )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None and process.stderr is not None
    threading.Thread(target=lambda: [lines.put(line.rstrip("\n")) for line in process.stdout], daemon=True).start()  # type: ignore[union-attr]

    def save_report() -> list[str]:
        """The lines of the next save's report (from `saved ...` to its counts line)."""
        got: list[str] = []
        while not got or not got[-1].startswith("  added "):
            line = lines.get(timeout=60)
            if got or line.startswith("saved "):
                got.append(line)
        return got

    try:
        announced(process.stderr)
        apollo = pack_copy / "missions" / "apollo-12.md"
        original = apollo.read_text()
        apollo.write_text(
            original.replace("part_of: SM.PROGRAM.APOLLO", "part_of: SM.PROGRAM.APOLLO\n  crewed_by: SM.PERSON.CONRAD")
        )
        report = save_report()
        assert report[0] == "saved missions/apollo-12.md"
        assert "  + link SM.MISSION.APOLLO12 -[crewed_by]-> SM.PERSON.CONRAD (missions/apollo-12.md)" in report
        assert "  new dangling: SM.MISSION.APOLLO12 -[crewed_by]-> SM.PERSON.CONRAD (missions/apollo-12.md)" in report
        assert not any("COLLINS" in line for line in report)  # the pack's older dangling link is not reprinted

        apollo.write_text(original.replace('title: "Apollo 12"', "title: [Apollo, 12]"))
        report = save_report()
        assert any(line.startswith("  new missions/apollo-12.md:") and "error[E001] [title]" in line for line in report)
        assert "  - link SM.MISSION.APOLLO12 -[crewed_by]-> SM.PERSON.CONRAD (missions/apollo-12.md)" not in report

        apollo.write_text(original.replace('title: "Apollo 12"', "title: [Apollo, 12]") + "\nStill broken.\n")
        report = save_report()  # saved again, still broken: its error is said again
        assert report[0] == "saved missions/apollo-12.md"
        assert any(
            line.startswith("  still missions/apollo-12.md:") and "error[E001] [title]" in line for line in report
        )

        apollo.write_text(original)
        report = save_report()
        assert any(
            line.startswith("  fixed missions/apollo-12.md:") and "error[E001] [title]" in line for line in report
        )
        assert "  - link SM.MISSION.APOLLO12 -[crewed_by]-> SM.PERSON.CONRAD (missions/apollo-12.md)" in report
        assert (
            "  no longer dangling: SM.MISSION.APOLLO12 -[crewed_by]-> SM.PERSON.CONRAD (missions/apollo-12.md)"
            in report
        )
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_link_out_of_the_pack_saved_while_watching_is_refused(
    graph: GraphStore, settings: Settings, embedder: Embedder, tmp_path: Path
) -> None:
    root = tmp_path / "p"
    put(root, "a.md", "---\nid: A\n---\nA.\n")
    put(tmp_path / "outside", "password.md", SECRET)
    watcher = PackWatcher(
        [root], graph, lambda saved: ingest([root], settings, embedder=embedder, graph=graph, saved=saved)
    )
    watcher.start()

    (root / "leak.md").symlink_to(tmp_path / "outside" / "password.md")
    save = watcher.saved({root / "leak.md"})

    assert [p.render() for p in save.new_problems] == [f"leak.md: error[F001]: {OUTSIDE}"]
    assert "SECRET" not in save.model_dump_json()
    assert count(graph, "MATCH (e:Entity) WHERE e.id <> 'A' OR e.body CONTAINS 'hunter2' RETURN count(e)") == 0


def test_a_save_made_while_the_watcher_arms_is_ingested(
    graph: GraphStore, settings: Settings, embedder: Embedder, tmp_path: Path
) -> None:
    """Seen once: a save 0.5 s after the first ingest, before the watcher was armed, was never ingested. The
    save here lands right after the first ingest has read the file, every time."""
    root = tmp_path / "p"
    put(root, "a.md", "---\nid: A\ntitle: First\n---\nA.\n")
    stop = threading.Event()
    saves: list[SaveReport] = []

    def first_ingest(saved: Collection[FileKey] | None) -> IngestReport:
        report = ingest([root], settings, embedder=embedder, graph=graph, saved=saved)
        if not saves:
            put(root, "a.md", "---\nid: A\ntitle: Saved while arming\n---\nA.\n")
        return report

    def saved(save: SaveReport) -> None:
        saves.append(save)
        stop.set()

    watcher = PackWatcher([root], graph, first_ingest)
    timer = threading.Timer(60, stop.set)
    timer.start()
    try:
        watcher.run(lambda report: None, saved, lambda exc: None, stop)
    finally:
        timer.cancel()

    assert [save.files for save in saves] == [["a.md"]]
    assert count(graph, "MATCH (e:Entity {id: 'A', title: 'Saved while arming'}) RETURN count(e)") == 1
