"""What the packs hold, for an agent to learn before it asks (``pack_catalog``, ``packs://catalog``), and
the names every pack and kind filter is checked against (``graphrag.nearest``: one rule for every tool).

Kinds are compared loosely when not given exactly (``Mission`` and ``missions`` for ``mission``, see
``names.kind_key``); a loose spelling that fits two kinds (``method`` and ``Method``) is refused with both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, Field

from graphrag.names import kind_key, relation_of_type
from graphrag.nearest import resolve_all
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.stores.graph import GraphStore


class PackSummary(BaseModel):
    id: str = Field(description="The pack id: what the packs filters take.")
    title: str | None
    entities: int = Field(description="Entities its files define (placeholders aside).")
    kinds: dict[str, int] = Field(description="Entities per kind, most first: what the kinds filters take.")


class CatalogResult(BaseModel):
    """The packs the caller may see, their kinds and the relation names, with counts."""

    packs: list[PackSummary]
    relations: dict[str, int] = Field(description="Links per relation, most first: names pack_graph takes.")
    inverses: dict[str, str] = Field(
        description="Declared inverse names and the relation each walks backwards (has_part: part_of)."
    )


class Catalog:
    """Read on demand (a filter to check, or a catalog asked for): one grouped read, no cached copy to go stale."""

    def __init__(self, graph: GraphStore, vocabulary: RelationVocabulary, hidden: Iterable[str] = ()) -> None:
        self._graph = graph
        self._vocabulary = vocabulary
        self._hidden = sorted(hidden)

    def packs(self) -> list[PackSummary]:
        rows = self._graph.read("retrieval_catalog_kinds", hidden=self._hidden)
        return [
            PackSummary(
                id=row["pack"],
                title=row["title"],
                entities=sum(k["entities"] for k in row["kinds"]),
                kinds={k["kind"]: k["entities"] for k in row["kinds"] if k["kind"] is not None},
            )
            for row in rows
        ]

    def result(self) -> CatalogResult:
        rows = self._graph.read("retrieval_catalog_relations", types=self._vocabulary.types(), hidden=self._hidden)
        names = self._vocabulary.names()
        inverses = {name: relation_of_type(step.type) for name, step in names.items() if not step.forward}
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
        summaries = self.packs()
        chosen = resolve_all(packs, [p.id for p in summaries], ("pack", "packs"))
        within = [p for p in summaries if chosen is None or p.id in chosen]
        known_kinds = {kind for p in within for kind in p.kinds}
        return chosen, resolve_all(kinds, known_kinds, ("kind", "kinds"), kind_key)
