"""Find a pack's manifest and files, and parse them all (no store involved)."""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from graphrag.errors import echo
from graphrag.names import TEAM_PACK_PREFIX, normalise_relation
from ingest.frontmatter import compose_yaml, load_yaml
from ingest.labels import reserved_relation
from ingest.limits import MAX_FILE_BYTES
from ingest.model import PackManifest
from ingest.parse import ParsedFile, parse_file
from ingest.report import Problem

MANIFEST = "pack.yaml"


class PackError(Exception):
    """The pack itself cannot be read (missing folder, broken pack.yaml): a bad invocation."""


FileKey = tuple[str, str]  # (pack id, pack-relative path)


@dataclass
class Pack:
    manifest: PackManifest
    root: Path
    manifest_sha256: str
    files: list[ParsedFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def open_pack(root: Path, pack_id: str | None = None) -> Pack:
    """The pack's folder and manifest; its files are read by ``read_files``. ``pack_id`` is the id of a
    team source's mirror, given by the service whatever its pack.yaml says."""
    if not root.is_dir():
        raise PackError(f"{root}: not a folder (a pack is a folder of markdown files)")
    path = root / MANIFEST
    if path.is_file() and real_path_inside(root.resolve(), path) is None:
        raise PackError(f"{path}: {OUTSIDE}")
    raw = path.read_bytes() if path.is_file() else b""
    manifest = load_manifest(root, raw, pack_id)
    if pack_id is None and manifest.id.startswith(TEAM_PACK_PREFIX):
        raise PackError(
            f"{path}: pack ids starting with {TEAM_PACK_PREFIX!r} name team sources; give this pack another id"
        )
    return Pack(manifest=manifest, root=root.resolve(), manifest_sha256=hashlib.sha256(raw).hexdigest())


def load_manifest(root: Path, raw: bytes, pack_id: str | None = None) -> PackManifest:
    path = root / MANIFEST
    data: Any = {}
    try:
        if raw:
            data = load_yaml(raw.decode("utf-8-sig")) or {}
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 1
        raise PackError(f"{path}:{line}: invalid YAML: {echo(str(exc.problem))}") from exc
    except (UnicodeDecodeError, yaml.YAMLError) as exc:  # not UTF-8, or a control character
        raise PackError(f"{path}: not readable as YAML: {echo(str(exc))}") from exc
    if not isinstance(data, dict):
        raise PackError(f"{path}:1: pack.yaml must be a mapping")
    named = "id" in data
    data.setdefault("id", root.resolve().name)
    if pack_id is not None:
        data["id"] = pack_id
    try:
        manifest = PackManifest.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        problem = first["msg"].removeprefix("Value error, ")
        if not named and where == "id":  # the folder name stands in for the id: say how to give one
            raise PackError(f"{root}: {problem}; rename the folder, or give an id in {MANIFEST}") from exc
        raise PackError(f"{path}: [{where}] {problem}") from exc
    _refuse_reserved_relations(path, raw, manifest)
    return manifest


def _refuse_reserved_relations(path: Path, raw: bytes, manifest: PackManifest) -> None:
    """A link may be written under a declared name or its inverse, and is stored under the declared one:
    neither may be a relationship type of the service's own (``about: {inverse: concerns}`` would let
    ``concerns:`` write ``ABOUT``)."""
    for name, spec in manifest.relations.items():
        for written, where in ((name, f"relations.{name}"), (spec.inverse, f"relations.{name}.inverse")):
            if written is not None and (reserved := reserved_relation(written)):
                line = _relation_lines(raw).get(where, 1)
                raise PackError(f"{path}:{line}: [{where}] {reserved}; give it another name")


def _relation_lines(raw: bytes) -> dict[str, int]:
    """``relations.<name>`` and ``relations.<name>.inverse`` -> their line in a (valid) pack.yaml."""
    root = compose_yaml(raw.decode("utf-8-sig"))
    lines: dict[str, int] = {}
    for key, value in root.value if isinstance(root, yaml.MappingNode) else []:
        if key.value != "relations" or not isinstance(value, yaml.MappingNode):
            continue
        for name_node, spec in value.value:
            where = f"relations.{normalise_relation(str(name_node.value))}"
            lines[where] = name_node.start_mark.line + 1
            for field_node, _ in spec.value if isinstance(spec, yaml.MappingNode) else []:
                if field_node.value == "inverse":
                    lines[where + ".inverse"] = field_node.start_mark.line + 1
    return lines


def real_path_inside(root: Path, path: Path) -> Path | None:
    """``path``'s real path (every symlink followed) when it lies in the pack folder ``root`` (resolved)."""
    real = Path(os.path.realpath(path))
    return real if real.is_relative_to(root) else None


def markdown_files(root: Path) -> list[tuple[Path, str]]:
    """Every ``*.md`` below the root (any depth; hidden folders and files skipped, never entered), with its
    pack-relative POSIX path, in a stable order. A linked folder is not entered; one whose real path lies
    outside the pack is listed (as ``folder/``) so that the run refuses it aloud. A folder with a
    ``pack.yaml`` of its own is a nested pack: not entered, and listed (as ``folder/``) to be skipped aloud."""
    found: list[tuple[Path, str]] = []
    for folder, subfolders, names in os.walk(root):
        relative = os.path.relpath(folder, root).replace(os.sep, "/")
        prefix = "" if relative == "." else relative + "/"
        nested = [d for d in subfolders if not d.startswith(".") and is_nested_pack(Path(folder, d))]
        found += [(Path(folder, name), prefix + name + "/") for name in nested]
        subfolders[:] = [d for d in subfolders if not d.startswith(".") and d not in nested]
        for name in subfolders:
            path = Path(folder, name)
            if path.is_symlink() and real_path_inside(root, path) is None:
                found.append((path, prefix + name + "/"))
        for name in names:
            if name.endswith(".md") and not name.startswith("."):
                path = Path(folder, name)
                if path.is_file():
                    found.append((path, prefix + name))
    return sorted(found, key=lambda item: item[1])


def is_nested_pack(folder: Path) -> bool:
    """A folder of a pack that is a pack of its own (its own manifest, not a link out of the pack)."""
    return not folder.is_symlink() and (folder / MANIFEST).is_file()


NESTED = "a nested pack (its own pack.yaml): skipped; ingest it as a pack of its own"


@dataclass(frozen=True)
class StoredFile:
    """A file as the graph holds it: its content's hash and, when it was read at rest, its stamp."""

    sha256: str
    stamp: str | None = None
    problems: tuple[Problem, ...] = ()  # what the file's last reading reported: it holds them still


# A file changed this recently may change again within the same tick of the file system's clock, leaving its
# stamp as it was: it gets no stamp, so the next run reads it (2 s: the coarsest clock of a common file system).
RESTLESS_NS = 2 * 10**9


def file_stamp(path: Path, now_ns: int) -> str | None:
    """What shows a regular file unchanged without reading it: inode, size, modification and change time
    (the change time moves on every write, and no tool sets it back). None for a link, or a file changed in
    the last ``RESTLESS_NS``."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or now_ns - max(info.st_mtime_ns, info.st_ctime_ns) < RESTLESS_NS:
        return None
    return f"{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}"


def read_files(
    pack: Pack, stored: Mapping[str, StoredFile] | None = None, settled: Collection[str] = frozenset()
) -> None:
    """Hash every file and parse those whose content differs from the ``stored`` version (pack-relative
    path -> file). A file whose stamp is the stored one is taken as stored without being read: a run over
    files that did not change reads none. ``settled``: paths the caller saw unchanged since they were
    stored (a watcher's files not saved since), taken as stored unread too; a link is read all the same,
    since its target may have changed under another name. A file that cannot be read is rejected like one
    that cannot be parsed: reported, and its stored version kept."""
    stored = stored or {}
    now = time.time_ns()
    for path, rel in markdown_files(pack.root):
        if rel.endswith("/") and is_nested_pack(path):
            pack.problems.append(Problem(code="F004", path=rel, message=NESTED))
            continue
        before = stored.get(rel)
        stamp = file_stamp(path, now)
        if before is not None and stamp is not None and (stamp == before.stamp or rel in settled):
            pack.files.append(_as_stored(rel, before, before.stamp))
            continue
        try:
            raw = read_pack_file(pack.root, path, rel)
        except Unreadable as exc:
            unread = ParsedFile(path=exc.path, sha256="")
            unread.report("F001", str(exc))
            pack.files.append(unread)
            continue
        sha = hashlib.sha256(raw).hexdigest()
        if before is not None and before.sha256 == sha:
            pack.files.append(_as_stored(rel, before, stamp))
        else:
            parsed = parse_file(pack.manifest, rel, raw, sha)
            parsed.stamp = stamp
            pack.files.append(parsed)


def _as_stored(rel: str, before: StoredFile, stamp: str | None) -> ParsedFile:
    """A file taken as the graph holds it, with the problems it still has."""
    taken = ParsedFile(path=rel, sha256=before.sha256, unchanged=True, stamp=stamp)
    taken.problems = [problem.model_copy() for problem in before.problems]
    return taken


class Unreadable(Exception):
    """A file the run cannot take in; ``path`` is printable even when the name is not UTF-8."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


OUTSIDE = "its real path lies outside the pack folder (a symlink out); refused, nothing of it read"


def read_pack_file(root: Path, path: Path, rel: str) -> bytes:
    """The bytes of the pack file ``path`` (``root`` resolved), reading no more than MAX_FILE_BYTES + 1 of a
    larger one. A file whose real path is outside the pack is refused before it is opened: a link to a
    password file must not leak its text, nor even its id."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise Unreadable(shown, "the file name is not UTF-8; rename the file") from None
    real = real_path_inside(root, path)
    if real is None:
        raise Unreadable(rel, OUTSIDE)
    try:
        # the real path, not followed again: a link swapped in since the check is not opened
        with os.fdopen(os.open(real, os.O_RDONLY | os.O_NOFOLLOW), "rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise Unreadable(rel, f"cannot be read: {exc.strerror or exc}") from exc
    if len(raw) > MAX_FILE_BYTES:
        raise Unreadable(rel, f"the file is larger than {MAX_FILE_BYTES // 2**20} MiB, the most a pack file may be")
    return raw
