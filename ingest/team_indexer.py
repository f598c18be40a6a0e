"""Indexing team sources inside the server: mirror GitHub's tree, then ingest the mirror like a local pack.

Writes go through the server's ``LiveIndex`` (one at a time, applied to its in-memory graph copy at once).
Webhook deliveries only queue a source: one worker thread indexes queued sources in order, each once
however many pushes queued it, so GitHub gets its answer at once. Removing a source cancels its queued
job, waits for a running one, and ingests its mirror emptied: entities, links, passages and vectors go
by the ingester's own removal rules, then the Pack node and the mirror.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.github.sources import Source, TeamSources
from graphrag.github.terms import RepositoryToken
from graphrag.stores.graph import GraphStore
from ingest.pipeline import ingest
from ingest.report import IngestReport
from ingest.team_mirror import mirror_root, remove_mirror, sync

Write = Callable[[Callable[[], IngestReport]], IngestReport]
log = logging.getLogger(__name__)


class Indexer:
    def __init__(
        self, settings: Settings, graph: GraphStore, embedder: Embedder, write: Write, sources: TeamSources
    ) -> None:
        self._settings = settings
        self._graph = graph
        self._embedder = embedder
        self._write = write
        self._sources = sources
        self._queued: list[str] = []
        self._wake = threading.Condition()
        self._stopping = False
        self._worker: threading.Thread | None = None
        self._indexing = threading.Lock()  # one source at a time: a mirror is never synced by two threads

    def reindex(self, source: Source, token: RepositoryToken | None = None) -> IngestReport:
        """Brings the source's pack to GitHub's default branch now (only changed blobs are downloaded);
        ``token``, a read token for the source's repository a caller's grant holds, saves asking for one."""
        with self._indexing:
            return self._index(source, token)

    def _index(self, source: Source, token: RepositoryToken | None = None) -> IngestReport:
        started = time.perf_counter()
        root = mirror_root(self._settings, source)
        token = token or self._sources.app.repository_token(source.repository, "read")
        done = sync(self._sources.app, token, source, root)
        report = self._ingest(source, root)
        report.errors[:0] = done.problems
        log.info(
            "team source indexed: %d downloaded, %d deleted, %d errors (%d ms)",
            len(done.downloaded),
            len(done.deleted),
            len(report.errors),
            round((time.perf_counter() - started) * 1000),
        )
        return report

    def remove(self, source: Source) -> None:
        """Every index copy of the source: entities, links, passages, vectors, the Pack node, the mirror."""
        with self._wake:
            if source.id in self._queued:
                self._queued.remove(source.id)
        root = mirror_root(self._settings, source)
        with self._indexing:  # waits for a running indexing of it to end
            remove_mirror(root)
            root.mkdir(parents=True)
            self._ingest(source, root)
            self._graph.write("pack_forget", id=source.id)
            remove_mirror(root)
        log.info("team source removed")

    def _ingest(self, source: Source, root: Path) -> IngestReport:
        return self._write(
            lambda: ingest([root], self._settings, embedder=self._embedder, graph=self._graph, named={root: source.id})
        )

    # --- the queue webhook deliveries fill ---

    def enqueue(self, source: Source) -> None:
        with self._wake:
            if source.id not in self._queued:
                self._queued.append(source.id)
            self._wake.notify_all()
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, name="team-indexer", daemon=True)
                self._worker.start()

    def stop(self) -> None:
        with self._wake:
            self._stopping = True
            self._queued.clear()
            self._wake.notify_all()
        if self._worker is not None:
            self._worker.join()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._queued and not self._stopping:
                    self._wake.wait()
                if self._stopping:
                    return
                queued = self._queued.pop(0)
            try:
                with self._indexing:
                    source = next((s for s in self._sources.sources() if s.id == queued), None)
                    if source is not None:  # disconnected since it was queued: nothing to index
                        self._index(source)
            except Exception:
                log.exception("team source indexing failed; the next push or reindex_source tries again")
