"""Every query the service runs is a file in ``cypher/``; this module reads them.

A file opens with ``//`` comment lines saying what it does and naming each ``$parameter``;
the header is checked against the body (by the test suite), so an analyst can paste any
file into Neo4j Browser and know what to bind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from graphrag.bundled import bundled_folder

_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_LINE_COMMENT = re.compile(r"//[^\n]*")


def cypher_dir() -> Path:
    return bundled_folder("cypher")


@dataclass(frozen=True)
class CypherFile:
    name: str
    header: str
    body: str

    @property
    def statements(self) -> list[str]:
        """The body split on ``;`` at line ends (only schema files hold more than one)."""
        return [s.strip() for s in re.split(r";\s*$", self.body, flags=re.MULTILINE) if s.strip()]

    @property
    def code(self) -> str:
        """The body without its string literals and ``//`` comments: where parameters and labels are named."""
        return _LINE_COMMENT.sub("", _STRING.sub("''", self.body))

    @property
    def parameters(self) -> set[str]:
        return set(_PARAMETER.findall(self.code))

    @property
    def documented_parameters(self) -> set[str]:
        return set(_PARAMETER.findall(self.header))


def parse_cypher(name: str, text: str) -> CypherFile:
    lines = text.strip().splitlines()
    header = [line for line in _leading_comments(lines)]
    body = "\n".join(lines[len(header) :]).strip()
    return CypherFile(name=name, header="\n".join(line.lstrip("/ ") for line in header), body=body)


def _leading_comments(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        if not line.startswith("//"):
            break
        out.append(line)
    return out


_TYPE = re.compile(r"[A-Z][A-Z0-9_]*")
TYPE_PLACEHOLDER = "`LINK_TYPE`"


def of_type(cypher: CypherFile, rel_type: str) -> CypherFile:
    """``cypher`` with its relationship type placeholder (`LINK_TYPE`) set to ``rel_type``, which must be an
    UPPER_SNAKE type (the ingester validates relation names): a type Neo4j can plan by, where ``$(...)`` is
    matched by a scan of every relationship."""
    if not _TYPE.fullmatch(rel_type) or TYPE_PLACEHOLDER not in cypher.body:
        raise ValueError(f"{cypher.name}: cannot set its relationship type to {rel_type!r}")
    return CypherFile(cypher.name, cypher.header, cypher.body.replace(TYPE_PLACEHOLDER, f"`{rel_type}`"))


@cache
def query(name: str) -> CypherFile:
    """The query in ``cypher/<name>.cypher``."""
    path = cypher_dir() / f"{name}.cypher"
    return parse_cypher(name, path.read_text(encoding="utf-8"))


def all_queries() -> list[CypherFile]:
    return [query(p.stem) for p in sorted(cypher_dir().glob("*.cypher"))]
