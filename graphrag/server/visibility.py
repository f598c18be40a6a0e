"""What the caller of this request may see of team sources, and whether a team hit is still GitHub's file.

Every pack tool starts from the caller's ``Scope``: team packs the caller may not read now are hidden from every
retriever, walk and preview (GitHub is asked on each call, so lost access closes them at the next one), and the
pack and kind filters are resolved against what the caller may see.
Before a team hit is returned, ``stale`` compares its indexed file with GitHub's current tree: a file
changed since it was indexed is left out (and said so), and the source is queued for re-indexing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from fastmcp import Context
from fastmcp.server.dependencies import get_access_token

from graphrag.errors import GraphRagError
from graphrag.github.sources import Grant, View
from graphrag.retrieval.catalog import Catalog
from graphrag.retrieval.entity import EVERY_LINK, EntityReader, EntityWindow
from graphrag.retrieval.search import PackSearch
from graphrag.server.access import verified_account
from graphrag.server.context import Services, services_of
from ingest.team_mirror import is_current, mirror_root, mirrored, synced_head

STALE = "changed in GitHub since it was indexed (a reindex is queued); read it live with get_document"
log = logging.getLogger(__name__)


def caller_view(services: Services) -> View:
    return services.teams.view(verified_account(get_access_token()))


@dataclass(frozen=True)
class Scope:
    """What a pack tool reads in this call: the services, the caller's view, and the pack and kind filters
    resolved against what that caller may see (``invalid_argument`` with did-you-mean for unknown ones)."""

    services: Services
    view: View
    packs: Sequence[str] | None = None
    kinds: Sequence[str] | None = None

    @classmethod
    def of(cls, ctx: Context, packs: Sequence[str] | None = None, kinds: Sequence[str] | None = None) -> Scope:
        services = services_of(ctx)
        view = caller_view(services)
        catalog = Catalog(services.graph, services.relations, services.snapshot, view.hidden)
        return cls(services, view, *catalog.filters(packs, kinds))

    def search(self) -> PackSearch:
        return self.services.pack_search(self.view.hidden)

    def stale(self, hits: Iterable[Indexed]) -> set[str]:
        return stale(self.services, self.view, hits)


@dataclass(frozen=True)
class Indexed:
    """A hit as the index holds it: whose file, at which path, with which content hash."""

    id: str
    pack: str
    path: str
    sha256: str


def stale(services: Services, view: View, hits: Iterable[Indexed]) -> set[str]:
    """Ids of team hits whose file GitHub no longer has as indexed."""
    by_pack: dict[str, list[Indexed]] = {}
    for hit in hits:
        if hit.pack in view.readable:
            by_pack.setdefault(hit.pack, []).append(hit)
    out: set[str] = set()
    for pack, indexed in by_pack.items():
        grant = view.readable[pack]
        root = mirror_root(services.settings, grant.source)
        try:
            changed = _changed(services, grant, root, indexed)
        except GraphRagError:  # GitHub cannot say now: nothing of this source is served as current
            log.warning("github: a team source's files could not be compared; its hits are left out", exc_info=True)
            changed = {hit.id for hit in indexed}
        if changed:
            services.indexer.enqueue(grant.source)
        out |= changed
    return out


def _changed(services: Services, grant: Grant, root: Path, hits: list[Indexed]) -> set[str]:
    """One small answer (the default branch's commit) when the mirror holds that commit; else the tree."""
    app = services.teams.app
    head = app.head(grant.token)
    if head is not None and head == synced_head(root):
        return {hit.id for hit in hits if not mirrored(root, hit.path, hit.sha256)}
    tree = app.tree(grant.token, head) if head is not None else {}
    return {
        hit.id
        for hit in hits
        if not is_current(root, hit.path, hit.sha256, tree.get(grant.source.repository_path(hit.path)))
    }


class VisibleEntities(EntityReader):
    """``pack_get``'s and ``pack://``'s reader for this caller: an entity of a hidden pack is not found, links
    to one are not listed, and a team entity whose file changed in GitHub is refused, not served stale."""

    def __init__(self, services: Services, view: View) -> None:
        super().__init__(services.graph, view.hidden)
        self._services = services
        self._view = view

    def read(self, entity_id: str, offset: int, length: int, links: tuple[int, int] = EVERY_LINK) -> EntityWindow:
        window = super().read(entity_id, offset, length, links)
        page = window.page
        if page.pack in self._view.readable:
            hit = Indexed(page.id, page.pack, page.path or "", page.sha256 or "")
            if stale(self._services, self._view, [hit]):
                raise GraphRagError(f"entity {page.id!r}: its file {STALE}", code="document_changed")
        return window


def current_reader(services: Services) -> EntityReader:
    return VisibleEntities(services, caller_view(services))


def team_repositories(services: Services) -> list[str]:
    """The repositories whose files the caller's memory records may name (``github:owner/repo/...``)."""
    return sorted({grant.source.repository for grant in caller_view(services).readable.values()})
