"""Labels and relationship types the project's own queries give a meaning: a pack ``kind`` may never
become such a label, nor a relation name such a type (``contains`` would be the packs' ``CONTAINS``).

A kind becomes a label (``mission`` -> ``:Mission``); were it ``memory_record``, its entity would be a
``:MemoryRecord`` that the memory search of some project finds. The set is read from every file in
``cypher/``, so a label a new query introduces is reserved the day it is written. Test and benchmark
labels count too (``TOOLING_LABELS``): an entity labelled ``:GraphRagTestMarker`` would let the test suite
wipe a real graph, and ``:BenchBare`` nodes are deleted by a benchmark's clean-up.

Kept here rather than in ``graphrag.names``, which every layer imports and which reads no files.
"""

from __future__ import annotations

import re
from functools import cache

from graphrag.names import relationship_type
from graphrag.stores.cypher import CypherFile, all_queries
from ingest.report import shown

# `(n:A:B ...)` in a node pattern, and `n:A` in a label test (`WHERE n:Missing`, `SET n:Missing`). A
# relationship `[r:TYPE]` is left out by its `[`, a map entry `{key: value}` by its `{` or its space.
_NODE_PATTERN = re.compile(r"\(\s*\w*\s*((?::\s*\w+\s*)+)")
_LABEL_TEST = re.compile(r"(?<![\[{\w])\w+((?::\w+)+)")
# `[r:TYPE]`, `[:A|B]` and `-[:TYPE*1..2]-` in a relationship pattern.
_RELATIONSHIP_PATTERN = re.compile(r"\[\s*\w*\s*:\s*(\w+(?:\s*\|\s*\w+)*)")


def labels_in(query: CypherFile) -> set[str]:
    """The node labels a query names (in its code: strings and comments name none)."""
    found: set[str] = set()
    for pattern in (_NODE_PATTERN, _LABEL_TEST):
        for match in pattern.finditer(query.code):
            found.update(label.strip() for label in match.group(1).split(":") if label.strip())
    return found


# The labels of the test suite's and the benchmarks' own queries (``cypher/test_*``, ``cypher/bench_*``), which
# the wheel does not ship: reserved all the same in an installed service (a test checks them against those files).
TOOLING_LABELS = frozenset({"GraphRagTestMarker", "BenchBare", "BenchBarePassage", "BenchPeer"})


@cache
def service_labels() -> frozenset[str]:
    """Every node label used by a file of ``cypher/``, and those of the test and benchmark queries."""
    return TOOLING_LABELS | {label for query in all_queries() for label in labels_in(query)}


def reserved_kind_label(label: str) -> bool:
    """Whether a kind's label is the service's own; ``Entity`` (the default kind) is every entity's label."""
    return label != "Entity" and label in service_labels()


# The memory's links from one record to another (``graphrag.memory.model.Relation``): its queries match
# them between two :MemoryRecord nodes only, so a pack's links may carry the same names (``relates_to``
# is even the packs' default relation).
RECORD_LINK_TYPES = frozenset({"RELATES_TO", "FIXES_ISSUE", "SUPERSEDES"})


@cache
def service_relationship_types() -> frozenset[str]:
    """Every relationship type a file of ``cypher/`` names in a pattern."""
    found: set[str] = set()
    for query in all_queries():
        for match in _RELATIONSHIP_PATTERN.finditer(query.code):
            found.update(part.strip() for part in match.group(1).split("|"))
    return frozenset(found)


def reserved_relation(relation: str) -> str | None:
    """Why a (normalised) relation name may not name links, or None: its type is one the service draws
    itself (``CONTAINS`` from a pack to its entities, ``ABOUT`` from a memory record), so a pack's link of
    that type would be walked as one of them."""
    rel_type = relationship_type(relation)
    if rel_type not in service_relationship_types() - RECORD_LINK_TYPES:
        return None
    owned = "which the service uses for its own links"
    return f"relation {shown(relation)} would be the relationship type {rel_type}, {owned}"
