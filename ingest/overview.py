"""What a pack holds and what is wrong with it, for authors and reviewers: counts per kind and relation, dangling
links, orphans, duplicates, rejected files and the most connected entities. Read from the files alone, as
``graphrag check`` reads them (no store), so a review needs nothing running.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from graphrag.diagrams import MISSING_BOX, Arrow
from graphrag.names import fold, relation_of_type
from ingest.pipeline import read_packs
from ingest.plan import plan
from ingest.report import DanglingLink, PackReport, Problem

TOP_CONNECTED = 15
MENTION_READ_BYTES = 1_000_000  # of a skipped file searched for the missing ids it names
_SEPARATOR = re.compile(r"[./#:]")
_ID_TOKEN = re.compile(r"[\w][\w.\-/#:]*[\w]|\w")


class EntityRow(BaseModel):
    id: str
    pack: str
    kind: str
    title: str
    path: str
    links: int = Field(default=0, description="Typed links in and out.")


class SameTitle(BaseModel):
    title: str
    ids: list[str] = Field(description="Entities with this title (a link by title to it resolves to none).")


class RelationArrow(BaseModel):
    source_kind: str
    relation: str
    target_kind: str = Field(description="The target's kind, or Missing when no file defines it.")
    links: int


class DanglingGroup(BaseModel):
    """Dangling links whose targets share a prefix: hundreds of them are read by where they point."""

    prefix: str = Field(description="The targets' ids up to their last separator (PD.D of PD.D.083).")
    links: int
    targets: int
    declared_in: list[str] = Field(description="The files that declare them, most first.")
    mentioned_in: list[str] = Field(
        default_factory=list,
        description="Files skipped for having no frontmatter whose text names some of these targets (such a "
        "file defines no entity).",
    )


class PackOverview(BaseModel):
    """Everything ``graphrag report`` shows (also its ``--json`` output)."""

    packs: list[PackReport]
    entities: int
    links: int
    kinds: dict[str, int]
    relations: dict[str, int]
    arrows: list[RelationArrow]
    dangling: list[DanglingLink]
    dangling_groups: list[DanglingGroup] = Field(description="The dangling links by target prefix, most first.")
    orphans: list[EntityRow]
    duplicate_ids: list[Problem] = Field(description="Files that define an id another file defines too.")
    duplicate_titles: list[SameTitle]
    rejected: list[Problem] = Field(description="Errors of files that were rejected, with path and line.")
    links_left_out: list[Problem] = Field(description="Errors of links not stored (their files are).")
    warnings: list[Problem]
    most_connected: list[EntityRow]

    @property
    def exit_code(self) -> int:
        return 1 if self.rejected or self.links_left_out or self.duplicate_ids else 0

    def diagram(self) -> tuple[dict[str, int], list[Arrow]]:
        """Boxes (kind -> entities) and arrows for ``graphrag.diagrams.schema_svg``."""
        boxes = dict(self.kinds)
        missing = {d.target for d in self.dangling}
        if missing:
            boxes[MISSING_BOX] = len(missing)
        return boxes, [Arrow(a.source_kind, a.relation, a.target_kind, a.links) for a in self.arrows]


def dangling_groups(dangling: Sequence[DanglingLink], packs: Sequence[PackReport]) -> list[DanglingGroup]:
    """Dangling links grouped by their targets' prefix, each group with the skipped files that name its
    targets (a file of headings without frontmatter, meant to define them, defines none)."""
    groups: dict[str, list[DanglingLink]] = defaultdict(list)
    for link in dangling:
        cut = [m.start() for m in _SEPARATOR.finditer(link.target)]
        groups[link.target[: cut[-1]] if cut else link.target].append(link)
    named = _named_in_skipped(packs)
    found = []
    for prefix, links in groups.items():
        targets = {link.target for link in links}
        found.append(
            DanglingGroup(
                prefix=prefix,
                links=len(links),
                targets=len(targets),
                declared_in=[path for path, _ in Counter(link.declared_in for link in links).most_common()],
                mentioned_in=sorted(path for path, tokens in named.items() if targets & tokens),
            )
        )
    return sorted(found, key=lambda g: (-g.links, g.prefix))


def _named_in_skipped(packs: Sequence[PackReport]) -> dict[str, set[str]]:
    """Each skipped file's id-like words, by path."""
    tokens: dict[str, set[str]] = {}
    for pack in packs:
        for path in pack.skipped:
            try:
                with (Path(pack.root) / path).open("rb") as file:
                    text = file.read(MENTION_READ_BYTES).decode("utf-8", errors="replace")
            except OSError:
                continue
            tokens[path] = set(_ID_TOKEN.findall(text))
    return tokens


def overview(paths: Sequence[Path]) -> PackOverview:
    packs = read_packs(paths)
    work = plan(packs, {}, [], set(), mode="check")
    report = work.report
    entities = {e.id: e for e in work.valid}
    degree: Counter[str] = Counter()
    arrows: Counter[tuple[str, str, str]] = Counter()
    for link in work.links:
        degree[link.source] += 1
        degree[link.target] += 1
        source, target = entities.get(link.source), entities.get(link.target)
        arrows[
            (
                source.kind if source else MISSING_BOX,
                relation_of_type(link.type),
                target.kind if target else MISSING_BOX,
            )
        ] += 1
    rows = [
        EntityRow(id=e.id, pack=e.pack, kind=e.kind, title=e.title, path=e.path, links=degree[e.id])
        for e in entities.values()
    ]
    titles: dict[str, list[str]] = defaultdict(list)
    for entity in entities.values():
        titles[fold(entity.title)].append(entity.id)
    duplicate_ids = [p for p in report.errors if p.field == "id" and "defined by several files" in p.message]
    return PackOverview(
        packs=report.packs,
        entities=len(entities),
        links=len(work.links),
        kinds=dict(Counter(e.kind for e in entities.values()).most_common()),
        relations=dict(Counter(relation_of_type(link.type) for link in work.links).most_common()),
        arrows=[
            RelationArrow(source_kind=s, relation=r, target_kind=t, links=n) for (s, r, t), n in sorted(arrows.items())
        ],
        dangling=report.dangling,
        dangling_groups=dangling_groups(report.dangling, report.packs),
        orphans=sorted((r for r in rows if r.links == 0), key=lambda r: (r.pack, r.path)),
        duplicate_ids=duplicate_ids,
        duplicate_titles=[
            SameTitle(title=entities[ids[0]].title, ids=sorted(ids))
            for _, ids in sorted(titles.items())
            if len(ids) > 1
        ],
        rejected=[p for p in report.errors if p not in duplicate_ids and p.rejects_file],
        links_left_out=[p for p in report.errors if p.link],
        warnings=report.warnings,
        most_connected=sorted((r for r in rows if r.links), key=lambda r: (-r.links, r.id))[:TOP_CONNECTED],
    )
