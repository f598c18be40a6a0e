"""Spelling rules shared by authors and analysts: ids, relation names, kind labels."""

from __future__ import annotations

import re

# An id: letters of any script, digits and `. _ : / -`, no spaces.
ID_PATTERN = re.compile(r"^[\w.:/\-]+$")
RELATION_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[\s\-]+")

# Labels the graph model gives a meaning of its own; a kind may not shadow them.
RESERVED_LABELS = frozenset({"Entity", "Missing", "Pack"})


def is_valid_id(value: str) -> bool:
    return bool(value) and ID_PATTERN.match(value) is not None


def normalise_relation(raw: str) -> str | None:
    """``dependsOn`` / ``depends-on`` / ``Depends On`` -> ``depends_on``; None when no valid name results."""
    name = _SEPARATORS.sub("_", _CAMEL_BOUNDARY.sub("_", raw.strip())).lower()
    return name if RELATION_PATTERN.match(name) else None


def relationship_type(relation: str) -> str:
    """The Neo4j relationship type of a (normalised) relation name: ``depends_on`` -> ``DEPENDS_ON``."""
    return relation.upper()


def relation_of_type(rel_type: str) -> str:
    return rel_type.lower()


def kind_label(kind: str) -> str:
    """PascalCase label for a kind (``failure-mode`` -> ``FailureMode``), so Browser colours kinds apart."""
    parts = [p for p in re.split(r"[^\w]+|_", _CAMEL_BOUNDARY.sub("_", kind)) if p]
    label = "".join(p[:1].upper() + p[1:] for p in parts) or "Entity"
    if label[0].isdigit():
        label = "Kind" + label
    return label + "Kind" if label in RESERVED_LABELS - {"Entity"} else label
