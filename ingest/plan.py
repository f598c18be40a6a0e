"""Compare parsed packs with what the graph holds: what to write, embed, remove and report.

Pure: no store is touched here, so ``graphrag check`` and ``graphrag ingest`` share it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Literal

from graphrag.names import relation_of_type
from ingest.model import Entity
from ingest.packs import Pack
from ingest.report import DanglingLink, IngestReport, PackReport, Problem
from ingest.resolve import ResolvedLink, Resolver


@dataclass(frozen=True)
class StoredEntity:
    id: str
    pack: str
    path: str
    sha256: str
    title: str | None = None
    aliases: list[str] | None = None


@dataclass
class Plan:
    report: IngestReport
    write: list[Entity] = field(default_factory=list)  # new or changed: graph rows and links
    embed: list[Entity] = field(default_factory=list)  # need a (new) vector
    links: list[ResolvedLink] = field(default_factory=list)  # links declared by `write`
    remove: list[str] = field(default_factory=list)
    valid: list[Entity] = field(default_factory=list)  # every entity of the run that is ingested

    @property
    def changes_anything(self) -> bool:
        return bool(self.write or self.embed or self.remove)


def plan(
    packs: list[Pack],
    stored: dict[str, StoredEntity],
    others: list[dict[str, Any]],
    stale_packs: set[str],
    mode: Literal["ingest", "check"] = "ingest",
    relinked_packs: frozenset[str] = frozenset(),
) -> Plan:
    """``stored``: this run's packs as the graph holds them; ``others``: entities of other packs;
    ``stale_packs``: packs whose vectors were made by another embedder; ``relinked_packs``: packs
    whose pack.yaml changed, so every entity's links are written again."""
    report = IngestReport(mode=mode)
    by_path = {(s.pack, s.path): s for s in stored.values()}
    by_id: dict[str, list[Entity | StoredEntity]] = defaultdict(list)
    rejected_paths: set[tuple[str, str]] = set()
    for pack in packs:
        pack_report = PackReport(pack=pack.manifest.id, root=str(pack.root), files=len(pack.files))
        report.packs.append(pack_report)
        for problem in [*pack.problems, *(problem for parsed in pack.files for problem in parsed.problems)]:
            problem.pack = pack.manifest.id
            (report.errors if problem.severity == "error" else report.warnings).append(problem)
        for parsed in pack.files:
            if parsed.unchanged:
                known = by_path[(pack.manifest.id, parsed.path)]
                by_id[known.id].append(known)
                pack_report.entities += 1
            elif parsed.skipped:
                pack_report.skipped.append(parsed.path)
            elif parsed.entity is None:
                rejected_paths.add((pack.manifest.id, parsed.path))
            else:
                by_id[parsed.entity.id].append(parsed.entity)
                pack_report.entities += 1

    other_packs = {o["id"]: o for o in others}
    valid: list[Entity] = []
    unchanged: list[StoredEntity] = []
    kept: set[str] = set()  # ids whose stored version stays because the file is in conflict
    for entity_id, entities in by_id.items():
        owner = other_packs.get(entity_id)
        if len(entities) > 1 or owner is not None:
            paths = [f"{e.pack}:{e.path}" for e in entities]
            if owner is not None:
                paths.append(f"{owner['pack']}:{owner['path']}")
            for entity in entities:
                report.errors.append(
                    Problem(
                        severity="error",
                        path=entity.path,
                        pack=entity.pack,
                        field="id",
                        message=f"id {entity_id!r} is defined by several files: {', '.join(paths)}; "
                        "the version ingested before is kept",
                    )
                )
            kept.add(entity_id)
            continue
        for one in entities:
            (valid if isinstance(one, Entity) else unchanged).append(one)  # type: ignore[arg-type]

    resolver = Resolver()
    for entity in valid:
        resolver.add(entity.id, entity.title, entity.aliases)
    for known in unchanged:
        resolver.add(known.id, known.title, known.aliases or [])
    for other in others:
        resolver.add(other["id"], other.get("title"), other.get("aliases") or [])
    for entity_id in kept:
        resolver.add(entity_id, None, [])

    result = Plan(report=report, valid=valid)
    for entity in valid:
        links, dangling, problems = resolver.links(entity)
        for problem in problems:
            problem.pack = entity.pack
        report.warnings.extend(problems)
        report.links += len(links)
        report.dangling.extend(
            DanglingLink(
                source=d.source,
                relation=relation_of_type(d.type),
                target=d.target,
                declared_in=d.declared_in,
                pack=entity.pack,
            )
            for d in dangling
        )
        before = stored.get(entity.id)
        changed = before is None or (before.sha256, before.path, before.pack) != (
            entity.sha256,
            entity.path,
            entity.pack,
        )
        if changed or entity.pack in relinked_packs:
            result.write.append(entity)
            result.links.extend(links)
            (report.added if before is None else report.updated).append(entity.id)
        if changed or entity.pack in stale_packs:
            result.embed.append(entity)
        if not (changed or entity.pack in relinked_packs):
            report.unchanged += 1
    report.unchanged += len(unchanged)

    defined = {e.id for e in valid} | {u.id for u in unchanged} | kept
    for entity_id, before in stored.items():
        if entity_id not in defined and (before.pack, before.path) not in rejected_paths:
            result.remove.append(entity_id)
    report.removed = sorted(result.remove)
    report.errors.sort(key=lambda p: (p.path, p.line or 0))
    report.warnings.sort(key=lambda p: (p.path, p.line or 0))
    return result
