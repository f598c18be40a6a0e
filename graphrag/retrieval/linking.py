"""Entity linking: the entities a question names, by id in any common spelling or by exact title or alias.

Every name is reduced to its ``name_tokens`` (case, width, separators and leading zeros gone, CJK one
token per character), so ``PEP 8``, ``pep-0008`` and ``PEP-0008`` are one key, and a title is found as
a phrase anywhere in the question. The question's tokens are scanned left to right, taking the longest
known name at each position (``Style Guide for Python Code`` before ``Python``). A name shared by several
entities links none of them. Derived from the data alone: no per-pack rules.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from graphrag.names import STOP_WORDS, name_tokens
from graphrag.retrieval.candidates import Candidate, Evidence, Query
from graphrag.retrieval.snapshot import GraphCopy, GraphSnapshot

MAX_QUERY_CHARS = 4000  # names are looked for in a question's first 4,000 characters
MAX_NAME_TOKENS = 24  # longer titles are not looked for as phrases (a question rarely quotes them whole)


@dataclass(frozen=True)
class NameTable:
    """Name key (tokens joined by a space) -> the one entity row it names; ``longest`` bounds the scan."""

    rows: dict[str, int]
    longest: int

    @classmethod
    def of(cls, copy: GraphCopy) -> NameTable:
        owners: dict[str, set[int]] = defaultdict(set)
        entities = copy.entities
        for row, entity_id in enumerate(entities.ids):
            if entities.missing[row]:
                continue
            for name in (entity_id, entities.titles[row], *entities.aliases[row]):
                tokens = name_tokens(name)
                if _distinctive(tokens):
                    owners[" ".join(tokens)].add(row)
        rows = {key: next(iter(found)) for key, found in owners.items() if len(found) == 1}
        return cls(rows=rows, longest=max((key.count(" ") + 1 for key in rows), default=0))


def _distinctive(tokens: list[str]) -> bool:
    """A name worth linking: not too long to be quoted, and not a lone stop word, number or short word."""
    if not tokens or len(tokens) > MAX_NAME_TOKENS:
        return False
    if len(tokens) > 1:
        return any(not t.isdigit() for t in tokens)
    word = tokens[0]
    return not word.isdigit() and word not in STOP_WORDS and len(word) >= 3


class EntityLinker:
    """The ``linked`` retriever: named entities in the order the question names them."""

    evidence: Evidence = "linked"

    def __init__(self, snapshot: GraphSnapshot) -> None:
        self._snapshot = snapshot

    def retrieve(self, query: Query) -> list[Candidate]:
        table: NameTable = self._snapshot.derived("names", NameTable.of)
        entities = self._snapshot.current().entities
        tokens = name_tokens(query.text[:MAX_QUERY_CHARS])
        found: dict[int, None] = {}
        start = 0
        while start < len(tokens):
            for length in range(min(table.longest, len(tokens) - start), 0, -1):
                row = table.rows.get(" ".join(tokens[start : start + length]))
                if row is not None:
                    found.setdefault(row, None)
                    start += length
                    break
            else:
                start += 1
        kept = [
            row
            for row in found
            if (query.packs is None or entities.packs[row] in query.packs)
            and (query.kinds is None or entities.kinds[row] in query.kinds)
        ]
        return [Candidate(entities.ids[row], 1.0) for row in kept[: query.limit]]
