"""``check`` and ``ingest``: parse packs, plan against the graph, then write vectors and graph.

Order matters for a crash halfway, so ``ingest`` runs in phases named for it: read what is stored, plan
(nothing written yet), mark the packs' vectors pending, write vectors before the graph batch by batch,
remove what is gone, and mark the packs settled last. Each graph batch (entities, their old links
deleted, their new links) is one transaction, so the content hash stored on a node always means "vector
and links of this version are in place"; the pack rows, which record the embedder and clear the pending
mark, are written last.
"""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import ExitStack, nullcontext
from pathlib import Path
from typing import Any

from graphrag.config import Settings
from graphrag.embedding import Embedder, Vectors, load_embedder
from graphrag.stores.entity_schema import ensure_entity_schema
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from ingest.model import Entity
from ingest.packs import MANIFEST, FileKey, Pack, PackError, StoredFile, open_pack, read_files
from ingest.phases import EMBED_BATCH, Progress, batches, timed
from ingest.plan import Plan, Stored, StoredEntity, plan
from ingest.report import DanglingLink, IngestReport, Problem, held_problems, stored_problems
from ingest.vectors import VectorsOnDemand, reembed_others, unsettled_vectors
from ingest.writing import GraphWriter, vector_payload

WRITE_BATCH = 500
STAMP_BATCH = 10_000
DERIVED_VERSION = 2  # raise when passages (or other data derived from files) are cut differently
# Of a relation's description, what search and pack_catalog read (search reads its first 64 content words,
# the catalog 300 characters): the graph keeps no more, so a huge one is not re-read on every refresh.
DESCRIPTION_CHARS = 2_000
log = logging.getLogger(__name__)


def _quiet(phase: str, done: int, total: int) -> None:
    return None


Named = Mapping[Path, str]  # folders whose pack id the service gives (team sources' mirrors)


def open_packs(paths: Sequence[Path], named: Named | None = None) -> list[Pack]:
    packs = [open_pack(Path(p), (named or {}).get(Path(p))) for p in paths]
    seen: dict[str, Path] = {}
    for pack in packs:
        other = seen.setdefault(pack.manifest.id, pack.root)
        if other != pack.root:
            raise PackError(f"two packs have the id {pack.manifest.id!r}: {other} and {pack.root}")
    return packs


def read_packs(paths: Sequence[Path], named: Named | None = None) -> list[Pack]:
    """Every file of every pack, parsed."""
    packs = open_packs(paths, named)
    for pack in packs:
        read_files(pack)
    return packs


def check(paths: Sequence[Path], graph: GraphStore | None = None) -> IngestReport:
    """Validate packs without writing anything: every problem an ingest would report. With ``graph`` (read
    only), it is measured against what the graph holds, as ``ingest`` is: a pack id that another folder holds
    there is refused, an id another pack defines is a conflict, a link to another pack's entity resolves, and
    the counts say what an ingest would add, update or leave; without, the report says that was not checked."""
    started = time.perf_counter()
    packs = open_packs(paths)
    stored = _read_stored(graph, packs, schema=False) if graph is not None else None
    for pack in packs:
        read_files(pack)
    report = plan(packs, stored.entities if stored else {}, stored.others if stored else [], set(), mode="check").report
    report.owners_checked = graph is not None
    report.timings["total"] = round(time.perf_counter() - started, 3)
    return report


def ingest(
    paths: Sequence[Path],
    settings: Settings,
    progress: Progress = _quiet,
    embedder: Embedder | None = None,
    graph: GraphStore | None = None,
    named: Named | None = None,
    saved: Collection[FileKey] | None = None,
) -> IngestReport:
    """``graph``: an open store to use (else one is opened and closed here); ``named``: pack ids the service
    gives to some of the folders (team sources' mirrors); ``saved``: a watcher's save, the files it saw
    saved and those its last run rejected: only they (and files the graph does not hold) are read, the
    others are taken as stored, and the graph's schema is not ensured again (the watcher's first run did).
    Every pack-wide rule (ids, ownership, links) is still checked against what the graph holds, so the
    graph ends as a full run would leave it.

    Its phases, in the order that keeps a run killed anywhere repairable by the next: read what is stored,
    plan, mark the packs' vectors pending, (if the vector collection was rebuilt) make the other packs'
    vectors again, write vectors then graph batch by batch, remove what is gone, stamp the files read, mark
    the packs settled."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    packs = open_packs(paths, named)
    embedder = embedder or load_embedder(settings.graphrag_embedder)
    with nullcontext(graph) if graph is not None else GraphStore.connect(settings) as graph, ExitStack() as opened:
        with timed(timings, "neo4j_read"):
            stored = _read_stored(graph, packs, schema=saved is None)
        vectors = VectorsOnDemand(opened, settings, embedder, graph, expect_points=bool(stored.entities))
        leftovers = unsettled_vectors(vectors, stored, timings)
        packs, work = _plan(paths, named, packs, stored, vectors, embedder, leftovers.reembed, saved, timings)
        pending = _mark_vectors_pending(graph, vectors.store, stored, work, leftovers.orphans)
        writer = GraphWriter(graph, work)
        if vectors.reindexed:
            reembed_others(graph, vectors.store, embedder, stored, work.report, progress, timings)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-store") as beside:
            indexing = _write_stores(beside, writer, vectors.store, embedder, work, progress, timings)
            _remove(graph, writer, work, timings)
            indexing.result()
        _stamp_files(graph, packs, stored, work.report, timings)
        _mark_settled(graph, packs, stored, work, embedder.id, pending, timings)
    timings["total"] = time.perf_counter() - started
    work.report.timings = {k: round(v, 3) for k, v in timings.items()}
    _log_run(work.report)
    return work.report


def _read_stored(graph: GraphStore, packs: list[Pack], schema: bool) -> Stored:
    """Read phase (also ``check``'s, without ``schema``): a pack id that another folder holds stops the run
    here, before anything is written."""
    if schema:
        ensure_entity_schema(graph)
    pack_ids = [p.manifest.id for p in packs]
    stored_packs = {r["id"]: r for r in graph.read("ingest_stored_packs", packs=pack_ids)}
    refuse_taken_ids(packs, stored_packs)
    return Stored(
        pack_ids=pack_ids,
        packs=stored_packs,
        entities={r["id"]: StoredEntity(**r) for r in graph.read("ingest_stored_entities", packs=pack_ids)},
        others=graph.read("ingest_other_entities", packs=pack_ids),
    )


def _plan(
    paths: Sequence[Path],
    named: Named | None,
    packs: list[Pack],
    stored: Stored,
    vectors: VectorsOnDemand,
    embedder: Embedder,
    reembed: set[str],
    saved: Collection[FileKey] | None,
    timings: dict[str, float],
) -> tuple[list[Pack], Plan]:
    """Plan phase: parse the files that changed and compare them with what is stored; still nothing written
    but a rebuilt collection. Planning shows whether vectors change, and only then (or when the collection
    is gone) is Qdrant opened: if its collection must be rebuilt, every file is parsed and planned again, each
    entity to be embedded."""
    stale = stored.stale(embedder.id) | (set(stored.pack_ids) if vectors.reindexed else set())
    relinked = frozenset(p.manifest.id for p in packs if _rewrite_all(p, stored.packs.get(p.manifest.id)))
    with timed(timings, "parse"):
        _read_changed_files(packs, stored.entities, stale | relinked, reembed, saved)
    with timed(timings, "plan"):
        work = plan(packs, stored.entities, stored.others, stale, relinked_packs=relinked, reembed=reembed)
    if vectors.store is None and (work.embed or work.remove or vectors.lost()):
        vectors.open()
        if vectors.reindexed:
            with timed(timings, "parse"):
                packs = read_packs(paths, named)
            work = plan(packs, stored.entities, stored.others, set(stored.pack_ids), relinked_packs=relinked)
    work.report.reindexed = vectors.reindexed
    return packs, work


def _mark_vectors_pending(
    graph: GraphStore, vectors: VectorStore | None, stored: Stored, work: Plan, orphans: list[str]
) -> list[str]:
    """Before any vector changes, its stored packs are marked pending (cleared by ``_mark_settled``, so a run
    that stops before leaves it set), then vectors of removed entities and orphans are deleted. Returns the
    packs marked."""
    if vectors is None:
        return []
    pending = [p for p in stored.pack_ids if p in stored.packs] if work.embed or work.remove or orphans else []
    if pending:
        graph.write("ingest_mark_vectors_pending", packs=pending)
    vectors.delete(work.remove + orphans)
    return pending


def _log_run(report: IngestReport) -> None:
    """The run's line for an operator: counts and duration, no file content."""
    counts = {
        "packs": len(report.packs),
        "added": len(report.added),
        "updated": len(report.updated),
        "unchanged": report.unchanged,
        "removed": len(report.removed),
        "embedded": report.embedded,
        "errors": len(report.errors),
        "warnings": len(report.warnings),
    }
    duration_ms = round(1000 * report.timings.get("total", 0.0))
    summary = ", ".join(f"{key} {value}" for key, value in counts.items())
    log.info("ingest: %s (%d ms)", summary, duration_ms, extra={**counts, "duration_ms": duration_ms})


def refuse_taken_ids(packs: list[Pack], stored_packs: dict[str, dict[str, Any]]) -> None:
    """A pack id belongs to one folder: another folder whose pack.yaml names it would replace that pack's
    entities. A folder that no longer holds that pack (it was moved or deleted) gives its id up. ``check``
    and ``ingest`` both apply it, so a check never promises what an ingest refuses."""
    for pack in packs:
        root = (stored_packs.get(pack.manifest.id) or {}).get("root")
        if root is None or Path(root) == pack.root or not Path(root).is_dir():
            continue
        try:
            holder = open_pack(Path(root)).manifest.id
        except PackError:
            continue
        if holder == pack.manifest.id:
            raise PackError(
                f"{pack.root / MANIFEST}: pack id {pack.manifest.id!r} belongs to the pack ingested from {root}; "
                "give this pack another id, or move that folder away first"
            )


def _rewrite_all(pack: Pack, stored: dict[str, Any] | None) -> bool:
    """Every entity of a stored pack is written again when its pack.yaml changed (links read differently)
    or its derived data (passages) was made by an older version of the ingester."""
    return stored is not None and (
        stored.get("manifest_sha256") != pack.manifest_sha256 or stored.get("derived_version") != DERIVED_VERSION
    )


def _read_changed_files(
    packs: list[Pack],
    stored: dict[str, StoredEntity],
    reread: set[str] | frozenset[str],
    reembed: set[str],
    saved: Collection[FileKey] | None,
) -> None:
    """Parse only files whose content differs from the stored version (a file whose stamp is unchanged is
    not even read); all files of the ``reread`` packs (their pack.yaml changed, which changes how links
    read, or their vectors need rebuilding), and the files of the ``reembed`` entities. With ``saved``, the
    other stored files are taken as stored unread."""
    files: dict[str, dict[str, StoredFile]] = {}
    for entity in stored.values():
        problems = stored_problems(entity.problems, entity.path)
        if entity.id not in reembed and problems is not None:  # else the file is read again
            files.setdefault(entity.pack, {})[entity.path] = StoredFile(entity.sha256, entity.stamp, problems)
    for pack in packs:
        pack_id = pack.manifest.id
        if pack_id in reread:
            read_files(pack)
            continue
        held = files.get(pack_id, {})
        settled = frozenset() if saved is None else {path for path in held if (pack_id, path) not in saved}
        read_files(pack, held, settled)


def _stamp_files(
    graph: GraphStore, packs: list[Pack], stored: Stored, report: IngestReport, timings: dict[str, float]
) -> None:
    """Stamp phase: each file's stamp (``packs.file_stamp``; "" for a file that had none) and its problems
    on the entity of its content, unless the stamp is there already, so the next run reads only files whose
    stamp changed and reports the problems of the others as they stand. After the entities' writes, which
    replace every property; a run that stops before leaves files to read again."""
    by_path = {(e.pack, e.path): e for e in stored.entities.values()}
    problems: dict[tuple[str | None, str], list[Problem]] = defaultdict(list)
    for problem in [*report.errors, *report.warnings]:
        problems[(problem.pack, problem.path)].append(problem)
    rows = []
    for pack in packs:
        pack_id = pack.manifest.id
        for parsed in pack.files:
            before = by_path.get((pack_id, parsed.path))
            stamp = parsed.stamp or ""
            if parsed.unchanged and before is not None and (before.stamp or "") != stamp:
                entity_id = before.id
            elif parsed.entity is not None:
                entity_id = parsed.entity.id
            else:
                continue
            rows.append(
                {
                    "id": entity_id,
                    "pack": pack_id,
                    "path": parsed.path,
                    "sha256": parsed.sha256,
                    "stamp": stamp,
                    "problems": held_problems(problems[(pack_id, parsed.path)]),
                }
            )
    with timed(timings, "neo4j_write"):
        for _, batch in batches(rows, STAMP_BATCH):
            graph.write("ingest_stamp_files", rows=batch)


def _count_links(graph: GraphStore, report: IngestReport, pack_ids: list[str]) -> dict[str, list[str]]:
    """Links and dangling links of the whole packs as stored, not only of the files parsed this time;
    returns the relationship types each pack uses (stored on the Pack: the graph's relation vocabulary)."""
    row = graph.read("ingest_pack_links", packs=pack_ids)[0]
    report.links = row["links"]
    report.dangling = [DanglingLink(**d) for d in row["dangling"]]
    return {t["pack"]: sorted(t["types"]) for t in row["types"]}


def _write_stores(
    beside: Executor,
    graph: GraphWriter,
    vectors: VectorStore | None,
    embedder: Embedder,
    work: Plan,
    progress: Progress,
    timings: dict[str, float],
) -> Future[None]:
    """Write phase, batch by batch: embed, store the vectors, then the graph rows. The stores write a batch in
    the thread ``beside`` while the model embeds the next one (at most one batch waits), so on two cores the model
    holds one and Neo4j and the vector engine share the other; each batch still writes its vectors before its
    graph rows, and the batches go in order. The vector index grows batch by batch there too (HNSW on each
    segment that passed the engine's threshold; ``optimize`` does nothing below it), so building it overlaps the
    embedding instead of following it: at 30,000 vectors, indexing every 5,000 took about the CPU of one build at
    the end. Entities written without a new vector (their pack.yaml changed) go last. Returns the index's last
    step, started beside what the run does next."""
    to_write = {e.id for e in work.write}
    total = len(work.embed)

    def store(done: int, batch: list[Entity], matrix: Vectors) -> None:
        if vectors is not None:
            payloads = [vector_payload(e) for e in batch]
            with timed(timings, "qdrant"):
                vectors.upsert(payloads, matrix)
                vectors.optimize()
            log.debug("ingest: %d of %d vectors written", done, total)
        with timed(timings, "neo4j_write"):
            graph.write([e for e in batch if e.id in to_write])
        log.debug("ingest: %d of %d entities embedded and written", done, total)

    storing: Future[None] | None = None
    stored = 0
    for done, batch in batches(work.embed, EMBED_BATCH):
        with timed(timings, "embed"):
            matrix = embedder.embed([e.embedding_text for e in batch])
        if storing is not None:
            storing.result()
            progress("embed", stored, total)
        storing, stored = beside.submit(store, done, batch, matrix), done
    if storing is not None:
        storing.result()
        progress("embed", stored, total)
    indexing = beside.submit(_index, vectors if total else None, timings)
    embedded = {e.id for e in work.embed}
    rest = [e for e in work.write if e.id not in embedded]
    with timed(timings, "neo4j_write"):
        for done, batch in batches(rest, WRITE_BATCH):
            graph.write(batch)
            progress("graph", done, len(rest))
    work.report.embedded += len(work.embed)
    return indexing


def _index(vectors: VectorStore | None, timings: dict[str, float]) -> None:
    """Build the vector index of what the run added (HNSW: CPU-bound, beside the graph's last writes)."""
    if vectors is not None:
        with timed(timings, "qdrant"):
            vectors.optimize()


def _remove(graph: GraphStore, writer: GraphWriter, work: Plan, timings: dict[str, float]) -> None:
    """Remove phase: entities whose file is gone (their vectors went before), then placeholders no link
    needs; the full-text index is brought up to date before the run reports."""
    with timed(timings, "neo4j_write"):
        if work.remove:
            writer.delete_declared_links(work.remove)
            graph.write("ingest_remove_entities", ids=work.remove)
        if work.changes_anything:
            graph.write("ingest_prune_placeholders")
            graph.write("ingest_await_text_indexes")


def _mark_settled(
    graph: GraphStore,
    packs: list[Pack],
    stored: Stored,
    work: Plan,
    embedder_id: str,
    pending: list[str],
    timings: dict[str, float],
) -> None:
    """Last phase: the packs' links are counted as stored, and their rows written (which records the embedder
    and clears ``vectors_pending``): a run that stops before leaves them for the next run to repair."""
    with timed(timings, "neo4j_read"):
        relation_types = _count_links(graph, work.report, stored.pack_ids)
    work.resolver.suggest(work.report.dangling)
    with timed(timings, "neo4j_write"):
        rows = [_pack_row(p, embedder_id, relation_types.get(p.manifest.id, [])) for p in packs]
        changed = [row for row in rows if row["id"] in pending or _differs(row, stored.packs.get(row["id"]))]
        if changed:
            graph.write("ingest_upsert_packs", packs=changed)


def _pack_row(pack: Pack, embedder_id: str, relation_types: list[str]) -> dict[str, Any]:
    m = pack.manifest
    declared = {name: spec.inverse for name, spec in sorted(m.relations.items())}
    described = {n: spec.description[:DESCRIPTION_CHARS] for n, spec in sorted(m.relations.items()) if spec.description}
    return {
        "id": m.id,
        "title": m.title or m.id,
        "description": m.description,
        "language": m.language,
        "root": str(pack.root),
        "embedder": embedder_id,
        "manifest_sha256": pack.manifest_sha256,
        "relation_types": relation_types,
        "relations": json.dumps(declared, sort_keys=True),
        "relation_descriptions": json.dumps(described, sort_keys=True),
        "derived_version": DERIVED_VERSION,
        "vectors_pending": False,
    }


def _differs(row: dict[str, Any], stored: dict[str, Any] | None) -> bool:
    return stored is None or any(stored.get(k) != v for k, v in row.items())
