"""The layers import only downwards: the server over ingest, retrieval, memory and observations, those over the
stores (and the CLI over all: ``commands.py`` modules are the command line's thin shells, so they may reach any layer). MCP lives in the
server alone: the memory's tools, access and budget fitting are its adapters, not the memory's.

Read from the source with ``ast``, so a violation fails before it becomes a habit.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.fast

ROOT = Path(__file__).resolve().parent.parent

# package -> packages it must never import
FORBIDDEN = {
    "graphrag/stores": ("ingest", "graphrag.retrieval", "graphrag.server", "graphrag.memory", "graphrag.evaluation"),
    "graphrag/embedding": ("ingest", "graphrag.stores", "graphrag.retrieval", "graphrag.server", "graphrag.memory"),
    "ingest": ("graphrag.retrieval", "graphrag.server", "graphrag.memory", "graphrag.evaluation"),
    "graphrag/retrieval": ("ingest", "graphrag.server", "graphrag.memory", "graphrag.evaluation", "fastmcp", "mcp"),
    "graphrag/evaluation": ("graphrag.stores", "graphrag.server", "graphrag.memory", "ingest"),
    "graphrag/memory": ("ingest", "graphrag.server", "graphrag.evaluation", "fastmcp", "mcp", "starlette"),
    "graphrag/observations": (
        "ingest",
        "graphrag.stores",
        "graphrag.retrieval",
        "graphrag.memory",
        "graphrag.server",
        "graphrag.evaluation",
        "fastmcp",
        "mcp",
        "starlette",
    ),
    # The GitHub edge: the App client, live documents, and which account connected which team source (kept in
    # Neo4j); it knows nothing of packs, retrieval or MCP. Team sources are indexed by ingest (ingest/team_*).
    "graphrag/github": (
        "ingest",
        "graphrag.retrieval",
        "graphrag.memory",
        "graphrag.server",
        "graphrag.evaluation",
        "fastmcp",
        "mcp",
        "starlette",
    ),
    # The server sits on top: it reads through retrieval and memory, and indexes team sources (and watched
    # packs) in its own process through ingest.
    "graphrag/server": ("graphrag.cli",),
}


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layer_imports_only_downwards(package: str) -> None:
    modules = sorted((ROOT / package).rglob("*.py"))
    assert len(modules) > 1, f"{package} has no modules: a renamed folder would pass unchecked"
    violations = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in modules
        if path.name != "commands.py"
        for name in imports(path)
        if any(name == banned or name.startswith(banned + ".") for banned in FORBIDDEN[package])
    ]
    assert violations == []


def test_modules_stay_small() -> None:
    """One idea per module: a file past 500 lines is a sign two ideas share it."""
    big = [
        f"{path.relative_to(ROOT)}: {n} lines"
        for folder in ("graphrag", "ingest")
        for path in (ROOT / folder).rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 500
    ]
    assert big == []
