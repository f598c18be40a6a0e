"""What an entity becomes in the stores (its node, links, passages and vector payload), and the writer that
puts them into Neo4j in transactions of bounded size."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from graphrag.names import script_text, text_key
from graphrag.stores.cypher import of_type, query
from graphrag.stores.graph import GraphStore
from ingest.model import Entity
from ingest.passages import cut
from ingest.plan import Plan
from ingest.resolve import ResolvedLink

# What one graph transaction may hold, estimated: Neo4j keeps it in its heap (at most 70% of it by default,
# 716 MiB for the local server's 1 GiB), at about 16 bytes per character of body text and 1 KiB per row.
# A dozen 4 MiB files in one transaction exhausted that; a single file of the largest size takes ~80 MiB.
TRANSACTION_BYTES = 256 * 2**20
T = TypeVar("T")


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
        text_key=text_key(entity.id),
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
            by_type: dict[str, list[dict[str, Any]]] = {}
            for row in (row for i in ids for row in self._links.get(i, [])):
                by_type.setdefault(row["type"], []).append(row)
            self._graph.write_together(
                [
                    ("ingest_upsert_entities", {"rows": [entity_row(entity) for entity, _ in part]}),
                    *((of_type(query("ingest_write_links"), t), {"rows": rows}) for t, rows in sorted(by_type.items())),
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
