"""Every SQL statement of the journal is a file: ``migrations/`` (applied once, immutable) and ``sql/`` (the rest).

A file opens with ``--`` comment lines saying what it does and naming each ``%(parameter)s`` (checked against
the body by the test suite), so an operator can read what the service runs before granting it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from graphrag.bundled import bundled_folder

_PARAMETER = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)s")
MIGRATIONS = ("001-retrieval-observations",)
PROVISION = "provision-observation-roles"


@dataclass(frozen=True)
class SqlFile:
    name: str
    header: str
    body: str
    sha256: str

    @property
    def parameters(self) -> set[str]:
        return set(_PARAMETER.findall(self.body))

    @property
    def documented_parameters(self) -> set[str]:
        return set(_PARAMETER.findall(self.header))

    @property
    def statement(self) -> bytes:
        """The body as psycopg runs it (a file of the repository, never text built from input)."""
        return self.body.encode()


def _read(path: Path) -> SqlFile:
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    lines = text.strip().splitlines()
    header = []
    for line in lines:
        if not line.startswith("--"):
            break
        header.append(line.removeprefix("--").strip())
    body = "\n".join(lines[len(header) :]).strip()
    return SqlFile(path.stem, "\n".join(header), body, hashlib.sha256(raw).hexdigest())


@cache
def query(name: str) -> SqlFile:
    """The statement in ``sql/<name>.sql``."""
    return _read(bundled_folder("sql") / f"{name}.sql")


@cache
def migration(name: str) -> SqlFile:
    """The migration ``migrations/<name>.sql``; its ``sha256`` is of the file's exact bytes."""
    return _read(bundled_folder("migrations") / f"{name}.sql")


def all_queries() -> list[SqlFile]:
    return [query(path.stem) for path in sorted(bundled_folder("sql").glob("*.sql"))]
