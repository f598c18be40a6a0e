"""Compare parsed packs with what the graph holds: what to write, embed, remove and report.

Pure: no store is touched here, so ``graphrag check`` and ``graphrag ingest`` share it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Literal

from graphrag.names import relation_of_type
from ingest.model import Entity
from ingest.packs import Pack
from ingest.parse import ParsedFile
from ingest.report import DanglingLink, IngestReport, PackReport, Problem, shown
from ingest.resolve import ResolvedLink, Resolver
from ingest.rules import matches


@dataclass(frozen=True)
class StoredEntity:
    id: str
    pack: str
    path: str
    sha256: str
    title: str | None = None
    aliases: list[str] | None = None
    stamp: str | None = None
    problems: str | None = None  # the file's problems when it was last read (JSON, ``file_problems``)


@dataclass(frozen=True)
class Stored:
    """What the graph holds before the run: its packs' rows and entities, and the entities of other packs."""

    pack_ids: list[str]
    packs: dict[str, dict[str, Any]]
    entities: dict[str, StoredEntity]
    others: list[dict[str, Any]]

    def stale(self, embedder_id: str) -> set[str]:
        """The packs whose vectors another embedder made (or none)."""
        return {p for p in self.pack_ids if (self.packs.get(p) or {}).get("embedder") != embedder_id}


@dataclass
class Plan:
    report: IngestReport
    write: list[Entity] = field(default_factory=list)  # new or changed: graph rows and links
    embed: list[Entity] = field(default_factory=list)  # need a (new) vector
    links: list[ResolvedLink] = field(default_factory=list)  # links declared by `write`
    remove: list[str] = field(default_factory=list)
    valid: list[Entity] = field(default_factory=list)  # every entity of the run that is ingested
    resolver: Resolver = field(default_factory=Resolver)  # every id and title known: dangling links' nearest ids

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
    reembed: set[str] | frozenset[str] = frozenset(),
) -> Plan:
    """``stored``: this run's packs as the graph holds them; ``others``: entities of other packs;
    ``stale_packs``: packs whose vectors were made by another embedder; ``relinked_packs``: packs
    whose pack.yaml changed, so every entity's links are written again; ``reembed``: entities whose vector
    is not of their stored version."""
    report = IngestReport(mode=mode)
    files = _Files.of(packs, stored, report)
    ids = _Ids.of(files, {o["id"]: (o["pack"], o["path"]) for o in others}, stored, report)
    report.warnings.extend(_kind_spellings(ids.valid))
    result = Plan(report=report, valid=ids.valid, resolver=_resolver(files, ids, stored, others))
    for entity in ids.valid:
        renew = entity.pack in stale_packs or entity.id in reembed
        _compare(result, entity, stored.get(entity.id), entity.pack in relinked_packs, renew)
    report.unchanged += len(ids.unchanged)
    _removals(result, stored, ids.defined, files)
    _silence(report, {pack.manifest.id: pack.manifest.ignore for pack in packs})
    result.resolver.suggest(report.dangling)
    report.removed = sorted(result.remove)
    report.errors.sort(key=lambda p: (p.path, p.line or 0))
    report.warnings.sort(key=lambda p: (p.path, p.line or 0))
    return result


@dataclass
class _Files:
    """The run's files sorted: the entities each id has (parsed, or as stored when the file is unchanged), the
    files rejected (their stored version stays) and those among them whose id could be read, and the files
    skipped for having no frontmatter. Each file's problems go to the report."""

    by_id: dict[str, list[Entity | StoredEntity]] = field(default_factory=lambda: defaultdict(list))
    rejected: set[tuple[str, str]] = field(default_factory=set)  # (pack, path)
    claims: list[ParsedFile] = field(default_factory=list)
    skipped: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def of(cls, packs: list[Pack], stored: dict[str, StoredEntity], report: IngestReport) -> _Files:
        by_path = {(s.pack, s.path): s for s in stored.values()}
        files = cls()
        for pack in packs:
            pack_id = pack.manifest.id
            pack_report = PackReport(pack=pack_id, root=str(pack.root), files=len(pack.files))
            report.packs.append(pack_report)
            for problem in [*pack.problems, *(problem for parsed in pack.files for problem in parsed.problems)]:
                problem.pack = pack_id
                (report.errors if problem.severity == "error" else report.warnings).append(problem)
            for parsed in pack.files:
                if parsed.unchanged:
                    known = by_path[(pack_id, parsed.path)]
                    files.by_id[known.id].append(known)
                    pack_report.entities += 1
                elif parsed.skipped:
                    pack_report.skipped.append(parsed.path)
                    files.skipped.add((pack_id, parsed.path))
                elif parsed.entity is None:
                    files.rejected.add((pack_id, parsed.path))
                    if parsed.claimed_id:
                        files.claims.append(parsed)
                else:
                    files.by_id[parsed.entity.id].append(parsed.entity)
                    pack_report.entities += 1
        return files


@dataclass
class _Ids:
    """Each id's one entity: ``valid`` (read this run) or ``unchanged`` (as stored); an id several files
    define, or another pack owns, is ``kept`` as stored and each of its files is rejected."""

    valid: list[Entity] = field(default_factory=list)
    unchanged: list[StoredEntity] = field(default_factory=list)
    kept: set[str] = field(default_factory=set)

    @property
    def defined(self) -> set[str]:
        return {e.id for e in self.valid} | {u.id for u in self.unchanged} | self.kept

    @classmethod
    def of(
        cls, files: _Files, owners: dict[str, tuple[str, str]], stored: dict[str, StoredEntity], report: IngestReport
    ) -> _Ids:
        ids = cls()
        for entity_id, entities in files.by_id.items():
            owner = owners.get(entity_id)
            if len(entities) > 1 or owner is not None:
                report.errors.extend(_conflict(entity_id, entities, owner, stored.get(entity_id)))
                # Each file keeps what it had: the id's stored version, and a file's previous entity (its id was
                # another before an author copied this one in), whose incoming links would fall to placeholders.
                files.rejected.update((e.pack, e.path) for e in entities)
                ids.kept.add(entity_id)
                continue
            for one in entities:
                (ids.valid if isinstance(one, Entity) else ids.unchanged).append(one)  # type: ignore[arg-type]
        return ids


def _resolver(files: _Files, ids: _Ids, stored: dict[str, StoredEntity], others: list[dict[str, Any]]) -> Resolver:
    """Every id and title a link may name: the run's entities, the stored versions that stay, other packs'
    entities, and the ids of rejected files (a link to one says which file would define it)."""
    resolver = Resolver()
    for entity in ids.valid:
        resolver.add(entity.id, entity.title, entity.aliases, entity.pack, entity.path)
    for known in ids.unchanged:
        resolver.add(known.id, known.title, known.aliases or [], known.pack, known.path)
    for other in others:
        resolver.add(other["id"], other.get("title"), other.get("aliases") or [])
    defined = ids.defined
    held = [s for s in stored.values() if s.id not in defined and (s.pack, s.path) in files.rejected]
    for known in held + [stored[i] for i in ids.kept if i in stored]:  # stored versions that stay
        resolver.add(known.id, known.title, known.aliases or [], known.pack, known.path)
    for entity_id in ids.kept - stored.keys():
        resolver.add(entity_id, None, [])
    for parsed in files.claims:
        lines = [p.line for p in parsed.problems if p.rejects_file and p.line is not None]
        resolver.rejected(str(parsed.claimed_id), parsed.path, min(lines, default=None))
    return resolver


def _compare(result: Plan, entity: Entity, before: StoredEntity | None, relinked: bool, renew: bool) -> None:
    """What an entity read this run needs: its links resolved and reported, its rows written when it changed
    (or its pack's relations did: ``relinked``), its vector made when it changed or ``renew`` says so (its
    pack's vectors are stale, or its own is not of its stored version)."""
    report = result.report
    links, dangling, problems = result.resolver.links(entity)
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
    changed = before is None or (before.sha256, before.path, before.pack) != (entity.sha256, entity.path, entity.pack)
    if changed or relinked:
        result.write.append(entity)
        result.links.extend(links)
        (report.added if before is None else report.updated).append(entity.id)
    else:
        report.unchanged += 1
    if changed or renew:
        result.embed.append(entity)


def _removals(result: Plan, stored: dict[str, StoredEntity], defined: set[str], files: _Files) -> None:
    """Stored entities no file defines any more (a rejected file's stay), each file that lost its frontmatter
    with a warning."""
    for entity_id, before in stored.items():
        if entity_id in defined or (before.pack, before.path) in files.rejected:
            continue
        result.remove.append(entity_id)
        if (before.pack, before.path) in files.skipped:
            result.report.warnings.append(
                Problem(
                    code="F005",
                    path=before.path,
                    pack=before.pack,
                    message=f"the file no longer opens with frontmatter: entity {shown(entity_id)} is removed",
                )
            )


def _silence(report: IngestReport, ignored: dict[str, list[str]]) -> None:
    """Leave out the warnings (dangling links too) each pack's pack.yaml ``ignore`` names."""
    report.warnings = [p for p in report.warnings if not matches(p.code, ignored.get(p.pack or "", []))]
    report.dangling = [d for d in report.dangling if not matches(d.code, ignored.get(d.pack or "", []))]


def _kind_spellings(entities: list[Entity]) -> list[Problem]:
    """A warning for each file of a pack whose kind is written another way than most of the pack writes the
    same label (``Method`` in 3 files, ``method`` in 29): one label in the graph, yet counted as two kinds."""
    spellings: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for entity in entities:
        spellings[(entity.pack, entity.kind_label)][entity.kind] += 1
    problems = []
    for entity in entities:
        counts = spellings[(entity.pack, entity.kind_label)]
        usual, files = min(counts.items(), key=lambda item: (-item[1], item[0]))
        if entity.kind != usual:
            message = (
                f"kind {shown(entity.kind)} is written {shown(usual)} in {files} other files of the pack "
                f"(one label, :{entity.kind_label}, counted as two kinds); write {shown(usual)}"
            )
            problems.append(
                Problem(
                    code="E007",
                    path=entity.path,
                    pack=entity.pack,
                    line=entity.kind_line,
                    field="kind",
                    message=message,
                )
            )
    return problems


def _conflict(
    entity_id: str, files: list[Entity | StoredEntity], owner: tuple[str, str] | None, before: StoredEntity | None
) -> list[Problem]:
    """One error per file that defines ``entity_id`` (the other pack's owner included), each naming all, on the
    line of its ``id:``; what the graph keeps meanwhile is the version stored before, if there is one."""
    places = [(e.pack, e.path, e.id_line if isinstance(e, Entity) else None) for e in files]
    places += [(*owner, None)] if owner else []
    message = f"id {shown(entity_id)} is defined by several files: {', '.join(f'{p}:{f}' for p, f, _ in places)}; "
    if owner:
        message += f"the version ingested before, from {owner[0]}:{owner[1]}, is kept"
    elif before is not None:
        message += f"the version ingested before, from {before.pack}:{before.path}, is kept"
    else:
        message += "none of them is ingested until the id is made unique"
    return [
        Problem(code="E002", pack=pack, path=path, line=line, field="id", message=message)
        for pack, path, line in places
    ]
