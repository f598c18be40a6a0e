"""What the packs hold, for an agent to learn before it asks (``pack_catalog``, ``packs://catalog``), and
the names every pack and kind filter is checked against (``graphrag.nearest``: one rule for every tool).

Kinds are compared loosely when not given exactly (``Mission`` and ``missions`` for ``mission``, see
``names.kind_key``); kinds written in two cases (``Method`` in 3 files, ``method`` in 29) are one kind, in
the catalog (under the spelling most files use, with both spellings) and for filters (either finds both).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, Field

from graphrag.names import fold, kind_key, relation_of_type
from graphrag.nearest import resolve_all
from graphrag.retrieval.snapshot import GraphCopy, GraphSnapshot
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.stores.graph import GraphStore


class PackSummary(BaseModel):
    id: str = Field(description="The pack id: what the packs filters take.")
    title: str | None
    entities: int = Field(description="Entities its files define (placeholders aside).")
    kinds: dict[str, int] = Field(description="Entities per kind, most first: what the kinds filters take.")
    kind_spellings: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Kinds written in several cases: their spellings (one kind for filters).",
    )
    relations: dict[str, int] = Field(default_factory=dict, description="Links its files declare, per relation.")
    relation_descriptions: dict[str, str] = Field(
        default_factory=dict,
        description="What its pack.yaml says each declared relation means, by relation name.",
    )


class CatalogResult(BaseModel):
    """The packs the caller may see, their kinds and the relation names, with counts."""

    packs: list[PackSummary]
    relations: dict[str, int] = Field(description="Links per relation, all packs, most first: names pack_graph takes.")
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

    def packs(self, relations: dict[str, dict[str, int]] | None = None) -> list[PackSummary]:
        """Each pack the caller may see; ``relations``: its links per relation, when read (``result``)."""
        rows = self._graph.read("retrieval_catalog_kinds", hidden=self._hidden)
        summaries = []
        for row in rows:
            kinds, spellings = _merged_cases({k["kind"]: k["entities"] for k in row["kinds"] if k["kind"] is not None})
            summaries.append(
                PackSummary(
                    id=row["pack"],
                    title=row["title"],
                    entities=sum(k["entities"] for k in row["kinds"]),
                    kinds=kinds,
                    kind_spellings=spellings,
                    relations=(relations or {}).get(row["pack"], {}),
                    relation_descriptions=json.loads(row["descriptions"] or "{}"),
                )
            )
        return summaries

    def result(self) -> CatalogResult:
        rows = self._graph.read("retrieval_catalog_relations", types=self._vocabulary.types(), hidden=self._hidden)
        per_pack: dict[str, dict[str, int]] = defaultdict(dict)
        every: Counter[str] = Counter()
        for row in rows:  # most links first
            name = relation_of_type(row["type"])
            per_pack[row["pack"]][name] = row["links"]
            every[name] += row["links"]
        names = self._vocabulary.names(self._hidden)
        # a name two packs declare as inverses of different relations lists the first (by type)
        inverses = {
            name: relation_of_type(backward[0].type)
            for name, steps in names.items()
            if (backward := [step for step in steps if not step.forward])
        }
        return CatalogResult(
            packs=self.packs(per_pack),
            relations=dict(sorted(every.items(), key=lambda item: (-item[1], item[0]))),
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
        spellings: dict[str, set[str]] = defaultdict(set)  # a kind in any case: every spelling of it
        for pack in known if chosen is None else chosen:
            for kind in kinds_of.get(pack, ()):
                spellings[fold(kind)].add(kind)
        wanted = resolve_all(kinds, spellings, ("kind", "kinds"), kind_key)
        return chosen, None if wanted is None else [kind for key in wanted for kind in sorted(spellings[key])]


def _merged_cases(kinds: dict[str, int]) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Kinds that differ only in case as one, under the spelling most entities use, most entities first; and
    the spellings of each kind written more than one way."""
    groups: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for kind, count in kinds.items():
        groups[fold(kind)].append((kind, count))
    merged: dict[str, int] = {}
    spellings: dict[str, list[str]] = {}
    for group in groups.values():
        listed = max(group, key=lambda spelled: (spelled[1], spelled[0]))[0]
        merged[listed] = sum(count for _, count in group)
        if len(group) > 1:
            spellings[listed] = sorted(kind for kind, _ in group)
    return dict(sorted(merged.items(), key=lambda item: (-item[1], item[0]))), spellings


def _kinds_by_pack(copy: GraphCopy) -> dict[str, set[str]]:
    """Each pack's kinds, placeholders aside (no file defines them)."""
    found: dict[str, set[str]] = defaultdict(set)
    entities = copy.entities
    for pack, kind, missing in zip(entities.packs, entities.kinds, entities.missing, strict=True):
        if kind and not missing:
            found[pack].add(kind)
    return found
