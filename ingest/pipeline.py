"""``check`` and ``ingest``: parse packs, plan against the graph, then write vectors and graph.

Order matters for a crash halfway: vectors are written before the graph, and each graph
batch (entities, their old links deleted, their new links) is one transaction, so the
content hash stored on a node always means "vector and links of this version are in place".
Pack metadata, which records the embedder, is written last.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager, nullcontext
from pathlib import Path
from typing import Any, TypeVar

from graphrag.config import Settings
from graphrag.embedding import Embedder, load_embedder
from graphrag.names import script_text
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from ingest.model import Entity
from ingest.packs import MANIFEST, Pack, PackError, open_pack, read_files
from ingest.passages import cut
from ingest.plan import Plan, StoredEntity, plan
from ingest.report import DanglingLink, IngestReport
from ingest.resolve import ResolvedLink

Progress = Callable[[str, int, int], None]  # (phase, done, total)
EMBED_BATCH = 1000  # one graph transaction per batch, too, unless it is larger than TRANSACTION_BYTES
WRITE_BATCH = 500
# What one graph transaction may hold, estimated: Neo4j keeps it in its heap (at most 70% of it by default,
# 716 MiB for the local server's 1 GiB), at about 16 bytes per character of body text and 1 KiB per row.
# A dozen 4 MiB files in one transaction exhausted that; a single file of the largest size takes ~80 MiB.
TRANSACTION_BYTES = 256 * 2**20
DERIVED_VERSION = 2  # raise when passages (or other data derived from files) are cut differently
T = TypeVar("T")
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
    only), a pack id that another folder holds there is refused as ``ingest`` refuses it; without, the report
    says that was not checked."""
    started = time.perf_counter()
    packs = open_packs(paths)
    if graph is not None:
        pack_ids = [p.manifest.id for p in packs]
        refuse_taken_ids(packs, {r["id"]: r for r in graph.read("ingest_stored_packs", packs=pack_ids)})
    for pack in packs:
        read_files(pack)
    report = plan(packs, {}, [], set(), mode="check").report
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
    schema: bool = True,
) -> IngestReport:
    """``graph``: an open store to use (else one is opened and closed here); ``named``: pack ids the service
    gives to some of the folders (team sources' mirrors); ``schema``: False when this caller ensured the
    graph's schema already (a watcher, after its first run)."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    packs = open_packs(paths, named)
    pack_ids = [p.manifest.id for p in packs]
    embedder = embedder or load_embedder(settings.graphrag_embedder)
    with nullcontext(graph) if graph is not None else GraphStore.connect(settings) as graph, ExitStack() as opened:
        with _timed(timings, "neo4j_read"):
            if schema:
                graph.ensure_schema()
            stored_packs = {r["id"]: r for r in graph.read("ingest_stored_packs", packs=pack_ids)}
            refuse_taken_ids(packs, stored_packs)
            stored = {r["id"]: StoredEntity(**r) for r in graph.read("ingest_stored_entities", packs=pack_ids)}
            others = graph.read("ingest_other_entities", packs=pack_ids)
        stale = {p for p in pack_ids if (stored_packs.get(p) or {}).get("embedder") != embedder.id}
        relinked = frozenset(p.manifest.id for p in packs if _rewrite_all(p, stored_packs.get(p.manifest.id)))
        vectors: VectorStore | None = None
        reindexed: str | None = None

        def open_vectors() -> VectorStore:
            nonlocal reindexed
            store = opened.enter_context(VectorStore.open(settings))
            reindexed = store.ensure_collection(embedder.id, embedder.dimension, expect_points=bool(stored))
            if reindexed:
                graph.write("ingest_forget_embedders")
                stale.update(pack_ids)
            return store

        # A pack whose last run did not end (or that an older ingester wrote) may hold vectors the graph
        # does not know: the first batch creates its node, the run's end writes `vectors_pending: false`.
        unsettled = [p for p in pack_ids if (stored_packs.get(p) or {}).get("vectors_pending") is not False]
        orphans: list[str] = []
        reembed: set[str] = set()
        if unsettled:
            vectors = open_vectors()
            with _timed(timings, "qdrant"):
                orphans, reembed = _unsettled_vectors(vectors, unsettled, stored, others)
        with _timed(timings, "parse"):
            _read_changed_files(packs, stored, stale | relinked, reembed)
        with _timed(timings, "plan"):
            work = plan(packs, stored, others, stale, relinked_packs=relinked, reembed=reembed)
        # Qdrant is opened only when vectors change: a no-change run never pays for loading it.
        if vectors is None and (work.embed or work.remove):
            vectors = open_vectors()
            if reindexed:
                with _timed(timings, "parse"):
                    packs = read_packs(paths, named)
                work = plan(packs, stored, others, stale, relinked_packs=relinked)
        work.report.reindexed = reindexed
        pending = [p for p in pack_ids if p in stored_packs] if work.embed or work.remove or orphans else []
        if vectors is not None:
            if pending:  # cleared with the pack rows at the end; a run that fails before leaves it set
                graph.write("ingest_mark_vectors_pending", packs=pending)
            vectors.delete(work.remove + orphans)
        writer = GraphWriter(graph, work)
        _write_stores(writer, vectors, embedder, work, progress, timings)
        work.report.embedded = len(work.embed)
        with _timed(timings, "neo4j_write"):
            if work.remove:
                writer.delete_declared_links(work.remove)
                graph.write("ingest_remove_entities", ids=work.remove)
            if work.changes_anything:
                graph.write("ingest_prune_placeholders")
                graph.write("ingest_await_text_indexes")
        with _timed(timings, "neo4j_read"):
            relation_types = _count_links(graph, work.report, pack_ids)
        work.resolver.suggest(work.report.dangling)
        with _timed(timings, "neo4j_write"):
            pack_rows = [_pack_row(p, embedder.id, relation_types.get(p.manifest.id, [])) for p in packs]
            changed_packs = [
                row for row in pack_rows if row["id"] in pending or _differs(row, stored_packs.get(row["id"]))
            ]
            if changed_packs:
                graph.write("ingest_upsert_packs", packs=changed_packs)
    timings["total"] = time.perf_counter() - started
    work.report.timings = {k: round(v, 3) for k, v in timings.items()}
    _log_run(work.report)
    return work.report


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


def _unsettled_vectors(
    vectors: VectorStore, packs: list[str], stored: dict[str, StoredEntity], others: list[dict[str, Any]]
) -> tuple[list[str], set[str]]:
    """(vectors of entities the graph does not hold, entities whose vector is not of the graph's version):
    what a failed run can leave behind between writing vectors and committing the graph."""
    defined = stored.keys() | {o["id"] for o in others}
    found = vectors.fingerprints(packs)
    orphans = sorted(found.keys() - defined)
    mismatched = {s.id for s in stored.values() if s.pack in packs and found.get(s.id) != s.sha256}
    return orphans, mismatched


def _rewrite_all(pack: Pack, stored: dict[str, Any] | None) -> bool:
    """Every entity of a stored pack is written again when its pack.yaml changed (links read differently)
    or its derived data (passages) was made by an older version of the ingester."""
    return stored is not None and (
        stored.get("manifest_sha256") != pack.manifest_sha256 or stored.get("derived_version") != DERIVED_VERSION
    )


def _read_changed_files(
    packs: list[Pack], stored: dict[str, StoredEntity], reread: set[str] | frozenset[str], reembed: set[str]
) -> None:
    """Parse only files whose content differs from the stored version; all files of the ``reread`` packs
    (their pack.yaml changed, which changes how links read, or their vectors need rebuilding), and the
    files of the ``reembed`` entities."""
    known = {(s.pack, s.path): s.sha256 for s in stored.values() if s.id not in reembed}
    for pack in packs:
        trusted = pack.manifest.id not in reread
        read_files(pack, (lambda p, path, sha: known.get((p, path)) == sha) if trusted else None)


def _count_links(graph: GraphStore, report: IngestReport, pack_ids: list[str]) -> dict[str, list[str]]:
    """Links and dangling links of the whole packs as stored, not only of the files parsed this time;
    returns the relationship types each pack uses (stored on the Pack: the graph's relation vocabulary)."""
    row = graph.read("ingest_pack_links", packs=pack_ids)[0]
    report.links = row["links"]
    report.dangling = [DanglingLink(**d) for d in row["dangling"]]
    return {t["pack"]: sorted(t["types"]) for t in row["types"]}


def entity_row(entity: Entity) -> dict[str, Any]:
    """The node of an entity: every property at once (``SET e = props`` drops keys an author removed)."""
    props: dict[str, Any] = dict(entity.properties)
    props.update(
        id=entity.id,
        pack=entity.pack,
        kind=entity.kind,
        kind_label=entity.kind_label,
        title=entity.title,
        summary=entity.summary,
        aliases=entity.aliases,
        alias_text="\n".join(entity.aliases),
        tags=entity.tags,
        path=entity.path,
        body=entity.body,
        body_ru=script_text(entity.body, "cyrillic"),
        body_cjk=script_text(entity.body, "cjk"),
        sha256=entity.sha256,
    )
    return {"id": entity.id, "pack": entity.pack, "kind_label": entity.kind_label, "props": props}


def link_row(link: ResolvedLink) -> dict[str, Any]:
    return dict(vars(link))  # dataclasses.asdict deep-copies every value: 1 s per 30,000 links


def passage_rows(entity: Entity) -> list[dict[str, Any]]:
    return [
        {
            "id": f"{entity.id}#{p.number}",
            "entity": entity.id,
            "pack": entity.pack,
            "path": entity.path,
            "lines": [p.first, p.last],
            "sha256": entity.sha256,
            "heading": p.heading,
            "text": p.text,
        }
        for p in cut(entity.id, entity.body, entity.body_line)
    ]


VECTOR_PAYLOAD = ("id", "pack", "kind", "title", "path", "sha256")  # a vector hit filters and cites itself


def vector_payload(entity: Entity) -> dict[str, Any]:
    return {name: getattr(entity, name) for name in VECTOR_PAYLOAD}


class GraphWriter:
    """Writes entities in batches; each batch (nodes, their new links and passages) is one transaction,
    so a node's stored hash always means its links are in place. A batch too large for one transaction
    is split between entities."""

    def __init__(self, graph: GraphStore, work: Plan) -> None:
        self._graph = graph
        self._new = set(work.report.added)  # no old links to delete
        self._links: dict[str, list[dict[str, Any]]] = {}
        for link in work.links:
            self._links.setdefault(link.declared_by, []).append(link_row(link))

    def write(self, batch: Sequence[Entity]) -> None:
        with_passages = [(entity, passage_rows(entity)) for entity in batch]
        for part in by_cost(with_passages, self._cost, TRANSACTION_BYTES):
            ids = [entity.id for entity, _ in part]
            old = [i for i in ids if i not in self._new]
            self.delete_declared_links(old)
            self._graph.write_together(
                [
                    ("ingest_upsert_entities", {"rows": [entity_row(entity) for entity, _ in part]}),
                    ("ingest_write_links", {"rows": [row for i in ids for row in self._links.get(i, [])]}),
                    ("ingest_delete_passages", {"ids": old}),
                    ("ingest_write_passages", {"rows": [row for _, rows in part for row in rows]}),
                ]
            )

    def delete_declared_links(self, ids: list[str]) -> None:
        """The links these entities' files declared, in transactions of bounded size: a file that once
        declared more links than one transaction can hold must not block every later ingest. Safe apart
        from the batch that writes the new ones: the nodes keep their old hashes until it commits, so a
        run that stops in between writes them again."""
        if ids:
            self._graph.run_auto_commit("ingest_delete_declared_links", ids=ids)

    def _cost(self, item: tuple[Entity, list[dict[str, Any]]]) -> int:
        """An entity's share of a transaction, in estimated bytes (see TRANSACTION_BYTES)."""
        entity, passages = item
        return 16 * len(entity.body) + 1024 * (1 + len(passages) + len(self._links.get(entity.id, [])))


def by_cost(items: Sequence[T], cost: Callable[[T], int], budget: int) -> Iterator[list[T]]:
    """Consecutive parts of ``items`` whose costs add up to at most ``budget`` (an item costlier than
    that is a part of its own)."""
    part: list[T] = []
    spent = 0
    for item in items:
        price = cost(item)
        if part and spent + price > budget:
            yield part
            part, spent = [], 0
        part.append(item)
        spent += price
    if part:
        yield part


def _write_stores(
    graph: GraphWriter,
    vectors: VectorStore | None,
    embedder: Embedder,
    work: Plan,
    progress: Progress,
    timings: dict[str, float],
) -> None:
    """Batch by batch: embed, store the vectors, then the graph rows. On two cores, running the stores
    beside the embedder (a writer thread) measured slower than this: all three are CPU-bound here.
    Entities written without a new vector (their pack.yaml changed) go last."""
    to_write = {e.id for e in work.write}
    total = len(work.embed)
    for done, batch in _batches(work.embed, EMBED_BATCH):
        with _timed(timings, "embed"):
            matrix = embedder.embed([e.embedding_text for e in batch])
        if vectors is not None:
            payloads = [vector_payload(e) for e in batch]
            with _timed(timings, "qdrant"):
                vectors.upsert(payloads, matrix)
            log.debug("ingest: %d of %d vectors written", done, total)
        with _timed(timings, "neo4j_write"):
            graph.write([e for e in batch if e.id in to_write])
        log.debug("ingest: %d of %d entities embedded and written", done, total)
        progress("embed", done, total)
    if vectors is not None and total:
        with _timed(timings, "qdrant"):
            vectors.optimize()
    embedded = {e.id for e in work.embed}
    rest = [e for e in work.write if e.id not in embedded]
    with _timed(timings, "neo4j_write"):
        for done, batch in _batches(rest, WRITE_BATCH):
            graph.write(batch)
            progress("graph", done, len(rest))


def _pack_row(pack: Pack, embedder_id: str, relation_types: list[str]) -> dict[str, Any]:
    m = pack.manifest
    declared = {name: spec.inverse for name, spec in sorted(m.relations.items())}
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
        "derived_version": DERIVED_VERSION,
        "vectors_pending": False,
    }


def _differs(row: dict[str, Any], stored: dict[str, Any] | None) -> bool:
    return stored is None or any(stored.get(k) != v for k, v in row.items())


def _batches(items: list[T], size: int) -> Iterator[tuple[int, list[T]]]:
    for start in range(0, len(items), size):
        batch = items[start : start + size]
        yield start + len(batch), batch


@contextmanager
def _timed(timings: dict[str, float], phase: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[phase] = timings.get(phase, 0.0) + time.perf_counter() - started
