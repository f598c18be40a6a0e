"""``serve --watch`` brings the retrievers' graph copy up to date by patching it where a save wrote or removed
entities, not by reading the whole graph again: after edits, an addition, a deletion and a new dangling link, the
patched copy is the copy a full read makes, and no full read ran."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.retrieval import snapshot
from graphrag.retrieval.snapshot import GraphCopy, GraphSnapshot
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.stores.graph import GraphStore
from ingest.pipeline import ingest


class Reads(GraphStore):
    """The real store, noting the name of every query read through it."""

    def __init__(self, graph: GraphStore) -> None:
        self.__dict__.update(graph.__dict__)
        self.names: list[str] = []

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.names.append(name)
        return super().read(name, **params)


def as_sets(copy: GraphCopy) -> tuple[set[tuple[Any, ...]], set[tuple[str, str, str]]]:
    e, links = copy.entities, copy.links
    rows = {
        (i, e.titles[r], tuple(e.aliases[r]), e.packs[r], e.kinds[r], bool(e.missing[r])) for r, i in enumerate(e.ids)
    }
    edges = {
        (e.ids[s], links.type_names[t], e.ids[d])
        for s, t, d in zip(links.sources.tolist(), links.types.tolist(), links.targets.tolist(), strict=True)
    }
    return rows, edges


def test_a_save_patches_the_graph_copy_to_what_a_full_read_makes(
    graph: GraphStore, settings: Settings, embedder: Embedder, pack_copy: Path
) -> None:
    ingest([pack_copy], settings, embedder=embedder, graph=graph)
    reads = Reads(graph)
    snapshot = GraphSnapshot(reads, RelationVocabulary(graph))
    before = snapshot.current()
    assert "SM.CRAFT.LUNOKHOD1" in before.entities.index

    moon = pack_copy / "bodies" / "moon.md"
    moon.write_text(moon.read_text().replace('title: "Moon"', 'title: "Selene"'))
    (pack_copy / "craft" / "lunokhod-1.md").unlink()  # Luna 17 still links to it: a placeholder now
    (pack_copy / "bodies" / "mars.md").write_text(
        "---\nid: SM.BODY.MARS\nkind: body\ntitle: Mars\nrelated: {studied_by: [SM.MISSION.MARS3]}\n---\n"
    )
    marker = graph.read("retrieval_marker")[0]
    saved = {("space-missions", path) for path in ("bodies/moon.md", "craft/lunokhod-1.md", "bodies/mars.md")}
    report = ingest([pack_copy], settings, embedder=embedder, graph=graph, saved=saved)
    reads.names.clear()
    snapshot.patch([*report.added, *report.updated, *report.removed], marker)
    patched = snapshot.current()

    assert "retrieval_copy" not in reads.names, reads.names
    assert as_sets(patched) == as_sets(GraphSnapshot(graph, RelationVocabulary(graph)).current())
    entities = patched.entities
    assert entities.titles[entities.index["SM.BODY.MOON"]] == "Selene"
    assert entities.missing[entities.index["SM.CRAFT.LUNOKHOD1"]]  # gone as an entity, kept as a dangling target
    assert entities.missing[entities.index["SM.MISSION.MARS3"]] and not entities.missing[entities.index["SM.BODY.MARS"]]


def test_the_copy_read_in_pages_is_the_copy_read_at_once(
    graph: GraphStore, settings: Settings, embedder: Embedder, pack_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy is read in pages of ids in order: pages of 5 entities (the last one short, placeholders among
    them) make the copy one page makes, every link included."""
    ingest([pack_copy], settings, embedder=embedder, graph=graph)
    (pack_copy / "craft" / "lunokhod-1.md").unlink()  # a placeholder among the pages
    ingest([pack_copy], settings, embedder=embedder, graph=graph)
    whole = GraphSnapshot(graph, RelationVocabulary(graph)).current()
    monkeypatch.setattr(snapshot, "PAGE", 5)
    reads = Reads(graph)
    paged = GraphSnapshot(reads, RelationVocabulary(graph)).current()
    assert reads.names.count("retrieval_copy") == len(whole.entities.ids) // 5 + 1
    assert as_sets(paged) == as_sets(whole)
    assert len(paged.links.types) == len(whole.links.types) > 0 and whole.entities.missing.any()
