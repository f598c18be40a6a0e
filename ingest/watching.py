"""``graphrag watch`` and ``graphrag serve --watch``: ingest packs, then again on every save, and tell the
author what that save changed (errors new or fixed, links added or removed, dangling links new or
resolved) rather than the packs' whole report again, and the problems each saved file still has.

What a save changed is read around the ingest: the stored hash and links of the saved files before and
after it, and the problems and dangling links of the two reports. A file saved with the same bytes as
its stored version is not parsed by the ingest, so it changed nothing and is left out.

A save's ingest reads only the saved files and those the last run rejected (an error there may be
resolved by this save: a duplicate id whose other file was deleted); every other file is as stored,
since the watcher, armed before the first ingest, would have seen it saved.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from graphrag.errors import GraphRagError
from graphrag.names import relation_of_type
from graphrag.stores.graph import GraphStore
from ingest.packs import MANIFEST, FileKey, PackError, Unreadable, markdown_files, read_pack_file
from ingest.pipeline import open_packs
from ingest.report import DanglingLink, IngestReport, Problem

STEP_MS = 20  # a save (often a write and a rename) is taken as one change after this much quiet


class Link(BaseModel):
    source: str
    relation: str
    target: str
    declared_in: str

    def render(self) -> str:
        return f"{self.source} -[{self.relation}]-> {self.target} ({self.declared_in})"


class SaveReport(BaseModel):
    """What one save changed; ``report`` is the ingest's own report (counts, timings)."""

    files: list[str] = Field(description="The saved (or deleted) files whose content changed.")
    new_problems: list[Problem] = Field(default_factory=list)
    open_problems: list[Problem] = Field(
        default_factory=list, description="Problems the saved files had before and still have."
    )
    fixed_problems: list[Problem] = Field(default_factory=list)
    links_added: list[Link] = Field(default_factory=list)
    links_removed: list[Link] = Field(default_factory=list)
    new_dangling: list[DanglingLink] = Field(default_factory=list)
    resolved_dangling: list[DanglingLink] = Field(default_factory=list)
    report: IngestReport

    def render(self) -> str:
        r = self.report
        lines = [f"saved {', '.join(self.files) or 'nothing new'}"]
        unchanged = sorted({p.path for p in self.open_problems} - set(self.files))
        if unchanged:
            lines[0] += f" (as stored: {', '.join(unchanged)})"
        lines += [f"  new {p.render()}" for p in self.new_problems]
        lines += [f"  still {p.render()}" for p in self.open_problems]
        lines += [f"  fixed {p.render()}" for p in self.fixed_problems]
        lines += [f"  + link {link.render()}" for link in self.links_added]
        lines += [f"  - link {link.render()}" for link in self.links_removed]
        lines += [f"  new dangling: {d.render()}" for d in self.new_dangling]
        lines += [f"  no longer dangling: {d.render()}" for d in self.resolved_dangling]
        lines.append(
            f"  added {len(r.added)}, updated {len(r.updated)}, removed {len(r.removed)}; "
            f"errors {len(r.errors)}, dangling {len(r.dangling)} in all ({r.timings.get('total', 0):.2f}s)"
        )
        return "\n".join(lines)


def _problem_key(problem: Problem) -> tuple[Any, ...]:
    """A problem as the author knows it: lines move when text is added above, so they are left out."""
    return (problem.pack, problem.path, problem.severity, problem.field, problem.message)


def _dangling_key(link: DanglingLink) -> tuple[str, str, str]:
    return (link.source, link.relation, link.target)


class PackWatcher:
    """Runs ``ingest`` (an ingest of the packs at ``paths``, however the caller writes it) and compares.
    ``ingest(saved)`` is given ``None`` on the first run (every file read, the graph's schema ensured), then
    the files each save is to read (``ingest.pipeline.ingest``'s ``saved``)."""

    def __init__(
        self, paths: Sequence[Path], graph: GraphStore, ingest: Callable[[Collection[FileKey] | None], IngestReport]
    ) -> None:
        self._paths = paths
        self._roots = {pack.root: pack.manifest.id for pack in open_packs(paths)}
        self._graph = graph
        self._ingest = ingest
        self._problems: dict[tuple[Any, ...], Problem] = {}
        self._dangling: dict[tuple[str, str, str], DanglingLink] = {}

    def run(
        self,
        on_first: Callable[[IngestReport], None],
        on_save: Callable[[SaveReport], None],
        on_failed: Callable[[PackError | GraphRagError], None],
        stop: threading.Event | None = None,
    ) -> None:
        """The first ingest, then one per save, until ``stop`` is set (or Ctrl-C). The watcher is armed
        before the first ingest reads a file: a save made while it armed, after that ingest, was missed.
        ``on_failed`` hears of a save that could not be ingested (say, a broken pack.yaml); watching goes on."""

        def saved(paths: set[Path]) -> None:
            try:
                report = self.saved(paths)
            except (PackError, GraphRagError) as exc:
                on_failed(exc)
            else:
                on_save(report)

        watch_saves(self._paths, saved, stop, on_ready=lambda: on_first(self.start()))

    def start(self) -> IngestReport:
        """The first ingest, whose whole report the caller shows."""
        report = self._ingest(None)
        self._problems = {_problem_key(p): p for p in [*report.errors, *report.warnings]}
        self._dangling = {_dangling_key(d): d for d in report.dangling}
        return report

    def saved(self, paths: Iterable[Path]) -> SaveReport:
        files = self._files(paths)
        before = self._stored(files)
        changed = [key for key in files if key not in before or before[key][0] != self._sha256(key)]
        rejected = {(p.pack, p.path) for p in self._problems.values() if p.severity == "error" and p.pack}
        report = self._ingest({*files, *rejected})
        after = self._stored(changed)
        reported = {_problem_key(p): p for p in [*report.errors, *report.warnings]}
        touched = set(changed)
        fixed = [p for key, p in self._problems.items() if (p.pack, p.path) in touched and key not in reported]
        new = [p for key, p in reported.items() if key not in self._problems]
        saved_files = set(files)
        still = [p for key, p in reported.items() if key in self._problems and (p.pack, p.path) in saved_files]
        for problem in fixed:
            del self._problems[_problem_key(problem)]
        self._problems.update(reported)
        dangling = {_dangling_key(d): d for d in report.dangling}
        old_links = {link for key in changed for link in before.get(key, (None, set()))[1]}
        new_links = {link for key in changed for link in after.get(key, (None, set()))[1]}
        save = SaveReport(
            files=[path for _, path in changed],
            new_problems=new,
            open_problems=still,
            fixed_problems=fixed,
            links_added=[_link(link) for link in sorted(new_links - old_links)],
            links_removed=[_link(link) for link in sorted(old_links - new_links)],
            new_dangling=[d for key, d in dangling.items() if key not in self._dangling],
            resolved_dangling=[d for key, d in self._dangling.items() if key not in dangling],
            report=report,
        )
        self._dangling = dangling
        return save

    def _sha256(self, key: FileKey) -> str | None:
        root = next(root for root, pack in self._roots.items() if pack == key[0])
        try:
            return hashlib.sha256(read_pack_file(root, root / key[1], key[1])).hexdigest()
        except Unreadable:  # deleted, not readable, or outside the pack: the ingest says which
            return None

    def _files(self, paths: Iterable[Path]) -> list[FileKey]:
        """The pack files saved; a saved pack.yaml stands for every file of its pack (links read anew)."""
        files: set[FileKey] = set()
        for saved in paths:
            path = saved.parent.resolve() / saved.name  # a link is the pack's file, wherever it leads
            for root, pack in self._roots.items():
                if path.is_relative_to(root):
                    relative = path.relative_to(root).as_posix()
                    if relative == MANIFEST:
                        files.update((pack, rel) for _, rel in markdown_files(root))
                    else:
                        files.add((pack, relative))
        return sorted(files)

    def _stored(self, files: Sequence[FileKey]) -> dict[FileKey, tuple[str, set[tuple[str, str, str, str]]]]:
        rows = self._graph.read("ingest_declared_links", files=[{"pack": pack, "path": path} for pack, path in files])
        return {
            (row["pack"], row["path"]): (
                row["sha256"],
                {(link["source"], link["type"], link["target"], row["path"]) for link in row["links"]},
            )
            for row in rows
        }


def _link(link: tuple[str, str, str, str]) -> Link:
    source, type_, target, declared_in = link
    return Link(source=source, relation=relation_of_type(type_), target=target, declared_in=declared_in)


def relevant(change: Any, path: str) -> bool:
    """Markdown files and pack.yaml, outside hidden folders (editors' swap files and .git are not)."""
    name = Path(path).name
    return not any(part.startswith(".") for part in Path(path).parts) and (name.endswith(".md") or name == MANIFEST)


def watch_saves(
    paths: Sequence[Path],
    on_save: Callable[[set[Path]], None],
    stop: threading.Event | None = None,
    on_ready: Callable[[], None] = lambda: None,
) -> None:
    """Calls ``on_save`` with the files of each save until ``stop`` is set (or Ctrl-C); ``on_ready`` once the
    watcher is armed, before any save is reported: saves from then on are not missed."""
    from watchfiles import watch

    ready = False
    # yield_on_timeout: the first (empty) yield says the watcher is running
    for changes in watch(
        *paths, watch_filter=relevant, yield_on_timeout=True, rust_timeout=500, step=STEP_MS, stop_event=stop
    ):
        if not ready:
            on_ready()
            ready = True
        if changes:
            on_save({Path(path) for _, path in changes})
