"""Folders of query files shipped beside the package (``cypher/``, ``sql/``, ``migrations/``)."""

from __future__ import annotations

from pathlib import Path


def bundled_folder(name: str) -> Path:
    """The repository's ``name/`` folder (editable installs, Docker) or the copy packed into a wheel."""
    package = Path(__file__).resolve().parent
    for candidate in (package.parent / name, package / f"{name}_files"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"no {name}/ folder next to {package}")
