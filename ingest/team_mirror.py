"""A team source's files on local disk, brought to GitHub's current tree blob by blob.

The ingester reads packs from folders; a team source is ingested from its mirror, so every rule of local
packs (report, bad input, incremental writes) holds for it unchanged. A blob is downloaded only when the
mirror's file has another git object id: an unchanged file costs nothing but the tree listing. The mirror
is also what search compares with GitHub before it returns a team hit (``is_current``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from graphrag.config import Settings
from graphrag.github.sources import Source
from graphrag.github.terms import RepositoryToken, TreeFile
from ingest.limits import MAX_FILE_BYTES
from ingest.packs import MANIFEST, markdown_files
from ingest.report import Problem

if TYPE_CHECKING:
    from graphrag.github.client import GitHubApp

MIRRORS = "sources"
HEAD = ".head"  # hidden: never read as a pack file


def blob_sha(content: bytes) -> str:
    """Git's object id of a blob: what GitHub's tree says a file is."""
    return hashlib.sha1(b"blob %d\x00" % len(content) + content).hexdigest()


def mirror_root(settings: Settings, source: Source) -> Path:
    """One folder per source, named by a hash: a repository's mirror never holds a folder source's."""
    return settings.graphrag_home / MIRRORS / hashlib.sha256(source.id.encode()).hexdigest()[:32]


@dataclass
class Sync:
    """What one sync did: files downloaded and deleted, and files it could not take (reported)."""

    downloaded: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def wanted(source: Source, tree: dict[str, TreeFile]) -> dict[str, TreeFile]:
    """The source's pack files in GitHub's tree, by pack-relative path: markdown below its folder (no hidden
    part, as for local packs) and the folder's pack.yaml."""
    found: dict[str, TreeFile] = {}
    for path, blob in tree.items():
        relative = source.pack_path(path)
        if relative is None or any(part.startswith(".") or not part for part in relative.split("/")):
            continue
        if relative.endswith(".md") or relative == MANIFEST:
            found[relative] = blob
    return found


def sync(app: GitHubApp, token: RepositoryToken, source: Source, root: Path) -> Sync:
    """Makes ``root`` hold the source's files as GitHub's default branch has them now, and records that
    commit (``synced_head``) when every file could be taken."""
    head = app.head(token)
    files = wanted(source, app.tree(token, head) if head else {})
    done = Sync()
    root.mkdir(parents=True, exist_ok=True)
    (root / HEAD).unlink(missing_ok=True)
    present = {relative for _, relative in markdown_files(root)} | (
        {MANIFEST} if (root / MANIFEST).is_file() else set()
    )
    for relative in sorted(present - files.keys()):
        (root / relative).unlink()
        done.deleted.append(relative)
    for relative, blob in sorted(files.items()):
        path = root / relative
        if path.is_file() and blob_sha(path.read_bytes()) == blob.sha:
            continue
        if blob.size > MAX_FILE_BYTES:  # the stored version stays, as for a local file past the bound
            done.problems.append(
                Problem(
                    code="F001",
                    path=relative,
                    pack=source.id,
                    message=f"the file is larger than {MAX_FILE_BYTES // 2**20} MiB, the most a pack file may be",
                )
            )
            continue
        content = app.blob(token, blob.sha)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.part")
        temporary.write_bytes(content)
        os.replace(temporary, path)
        done.downloaded.append(relative)
    if head and not done.problems:
        (root / HEAD).write_text(head, encoding="ascii")
    return done


def synced_head(root: Path) -> str | None:
    """The commit the mirror holds every file of (None: not known, e.g. a file was too large to take)."""
    path = root / HEAD
    return path.read_text(encoding="ascii") if path.is_file() else None


def mirrored(root: Path, relative: str, sha256: str) -> bool:
    """Whether the mirror's file is the version the index holds (content hash ``sha256``)."""
    path = root / relative
    return path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256


def is_current(root: Path, relative: str, sha256: str, github: TreeFile | None) -> bool:
    """Whether the indexed version (content hash ``sha256``) of a mirrored file is ``github``, GitHub's one."""
    return (
        github is not None
        and mirrored(root, relative, sha256)
        and blob_sha((root / relative).read_bytes()) == github.sha
    )


def remove_mirror(root: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)
