"""Labels the project's own queries give a meaning: a pack ``kind`` may never become one of them.

A kind becomes a label (``mission`` -> ``:Mission``); were it ``memory_record``, its entity would be a
``:MemoryRecord`` that the memory search of some project finds. The set is read from every file in
``cypher/``, so a label a new query introduces is reserved the day it is written. Test and benchmark
queries count too: an entity labelled ``:GraphRagTestMarker`` would let the test suite wipe a real
graph, and ``:BenchBare`` nodes are deleted by a benchmark's clean-up.

Kept here rather than in ``graphrag.names``, which every layer imports and which reads no files.
"""

from __future__ import annotations

import re
from functools import cache

from graphrag.stores.cypher import CypherFile, all_queries

# `(n:A:B ...)` in a node pattern, and `n:A` in a label test (`WHERE n:Missing`, `SET n:Missing`). A
# relationship `[r:TYPE]` is left out by its `[`, a map entry `{key: value}` by its `{` or its space.
_NODE_PATTERN = re.compile(r"\(\s*\w*\s*((?::\s*\w+\s*)+)")
_LABEL_TEST = re.compile(r"(?<![\[{\w])\w+((?::\w+)+)")


def labels_in(query: CypherFile) -> set[str]:
    """The node labels a query names (in its code: strings and comments name none)."""
    found: set[str] = set()
    for pattern in (_NODE_PATTERN, _LABEL_TEST):
        for match in pattern.finditer(query.code):
            found.update(label.strip() for label in match.group(1).split(":") if label.strip())
    return found


@cache
def service_labels() -> frozenset[str]:
    """Every node label used by a file of ``cypher/``."""
    return frozenset(label for query in all_queries() for label in labels_in(query))


def reserved_kind_label(label: str) -> bool:
    """Whether a kind's label is the service's own; ``Entity`` (the default kind) is every entity's label."""
    return label != "Entity" and label in service_labels()
