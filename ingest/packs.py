"""Find a pack's manifest and files, and parse them all (no store involved)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import ValidationError

from ingest.frontmatter import load_yaml
from ingest.model import PackManifest
from ingest.parse import ParsedFile, parse_file
from ingest.report import Problem

MANIFEST = "pack.yaml"


class PackError(Exception):
    """The pack itself cannot be read (missing folder, broken pack.yaml): a bad invocation."""


@dataclass
class Pack:
    manifest: PackManifest
    root: Path
    files: list[ParsedFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def load_manifest(root: Path) -> PackManifest:
    path = root / MANIFEST
    if not path.is_file():
        return PackManifest(id=root.resolve().name)
    try:
        data = load_yaml(path.read_text(encoding="utf-8-sig")) or {}
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 1
        raise PackError(f"{path}:{line}: invalid YAML: {exc.problem}") from exc
    if not isinstance(data, dict):
        raise PackError(f"{path}:1: pack.yaml must be a mapping")
    data.setdefault("id", root.resolve().name)
    try:
        return PackManifest.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise PackError(f"{path}: [{where}] {first['msg'].removeprefix('Value error, ')}") from exc


def markdown_files(root: Path) -> list[Path]:
    """Every ``*.md`` below the root, any depth, hidden folders and files skipped, in a stable order."""
    found = []
    for path in root.rglob("*.md"):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        found.append(path)
    return sorted(found)


def read_pack(root: Path) -> Pack:
    if not root.is_dir():
        raise PackError(f"{root}: not a folder (a pack is a folder of markdown files)")
    pack = Pack(manifest=load_manifest(root), root=root.resolve())
    for path in markdown_files(root):
        rel = path.relative_to(root).as_posix()
        pack.files.append(parse_file(pack.manifest, rel, path.read_bytes()))
    return pack
