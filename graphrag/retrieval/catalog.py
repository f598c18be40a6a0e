"""What the packs hold, for an agent to learn before it asks (``pack_catalog``, ``packs://catalog``), and
the names every pack and kind filter is checked against (``graphrag.nearest``: one rule for every tool).

Kinds are compared loosely when not given exactly (``Mission`` and ``missions`` for ``mission``, see
``names.kind_key``); a loose spelling that fits two kinds (``method`` and ``Method``) is refused with both.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, Field

from graphrag.names import kind_key, relation_of_type
from graphrag.nearest import resolve_all
from graphrag.retrieval.snapshot import GraphCopy, GraphSnapshot
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.stores.graph import GraphStore


class PackSummary(BaseModel):
    id: str = Field(description="The pack id: what the packs filters take.")
    title: str | None
    entities: int = Field(description="Entities its files define (placeholders aside).")
    kinds: dict[str, int] = Field(description="Entities per kind, most first: what the kinds filters take.")
    relation_descriptions: dict[str, str] = Field(
        default_factory=dict,
        description="What its pack.yaml says each declared relation means, by relation name.",
    )


class CatalogResult(BaseModel):
    """The packs the caller may see, their kinds and the relation names, with counts."""

    packs: list[PackSummary]
    relations: dict[str, int] = Field(description="Links per relation, most first: names pack_graph takes.")
    inverses: dict[str, str] = Field(
        description="Declared inverse names and the relation each walks backwards (has_part: part_of)."
    )


class Catalog:
    """The catalog is read on demand (one grouped read of every entity, when an agent asks for it); filters are
    checked on every call, so against the pack ids and the kinds of the server's graph copy, which follows
    the graph (``GraphSnapshot``), without reading every entity each time."""

    def __init__(
        self, graph: GraphStore, vocabulary: RelationVocabulary, snapshot: GraphSnapshot, hidden: Iterable[str] = ()
    ) -> None:
        self._graph = graph
        self._vocabulary = vocabulary
        self._snapshot = snapshot
        self._hidden = sorted(hidden)

    def packs(self) -> list[PackSummary]:
        rows = self._graph.read("retrieval_catalog_kinds", hidden=self._hidden)
        return [
            PackSummary(
                id=row["pack"],
                title=row["title"],
                entities=sum(k["entities"] for k in row["kinds"]),
                kinds={k["kind"]: k["entities"] for k in row["kinds"] if k["kind"] is not None},
                relation_descriptions=json.loads(row["descriptions"] or "{}"),
            )
            for row in rows
        ]

    def result(self) -> CatalogResult:
        rows = self._graph.read("retrieval_catalog_relations", types=self._vocabulary.types(), hidden=self._hidden)
        names = self._vocabulary.names(self._hidden)
        # a name two packs declare as inverses of different relations lists the first (by type)
        inverses = {
            name: relation_of_type(backward[0].type)
            for name, steps in names.items()
            if (backward := [step for step in steps if not step.forward])
        }
        return CatalogResult(
            packs=self.packs(),
            relations={relation_of_type(row["type"]): row["links"] for row in rows},
            inverses=dict(sorted(inverses.items())),
        )

    def filters(
        self, packs: Sequence[str] | None, kinds: Sequence[str] | None
    ) -> tuple[list[str] | None, list[str] | None]:
        """``packs`` and ``kinds`` as the known names they stand for; an unknown one is ``invalid_argument``."""
        if packs is None and kinds is None:
            return None, None
        known = [row["id"] for row in self._graph.read("retrieval_packs") if row["id"] not in self._hidden]
        chosen = resolve_all(packs, known, ("pack", "packs"))
        kinds_of = self._snapshot.derived("kinds_by_pack", _kinds_by_pack)
        known_kinds = {kind for pack in (known if chosen is None else chosen) for kind in kinds_of.get(pack, ())}
        return chosen, resolve_all(kinds, known_kinds, ("kind", "kinds"), kind_key)


def _kinds_by_pack(copy: GraphCopy) -> dict[str, set[str]]:
    """Each pack's kinds, placeholders aside (no file defines them)."""
    found: dict[str, set[str]] = defaultdict(set)
    entities = copy.entities
    for pack, kind, missing in zip(entities.packs, entities.kinds, entities.missing, strict=True):
        if kind and not missing:
            found[pack].add(kind)
    return found
