"""The layers import only what the layering allows (an allow-list, graphrag/__init__.py): the base modules (``graphrag/*.py``: settings, errors, names) under
everything, the stores over them, ingest, retrieval, memory and the other features over the stores, the server
over those. The command line (``graphrag/cli/``, the one folder without rules) is a thin shell over all of
them. MCP lives in the server alone: the memory's tools, access and budget fitting are its adapters.

Read from the source with ``ast``, so a violation fails before it becomes a habit.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.fast

ROOT = Path(__file__).resolve().parent.parent

MCP = ("fastmcp", "mcp", "starlette")  # the protocol lives in the server (and the command line) alone
EMBEDDING, STORES, GITHUB, GUIDE = "graphrag.embedding", "graphrag.stores", "graphrag.github", "graphrag.guide"
# package -> the packages of ours it may import besides the base modules: the layering graphrag/__init__.py
# writes down, and nothing else (a peer import nobody planned fails here until it is written there too)
ALLOWED = {
    "graphrag/embedding": (),
    "graphrag/stores": (EMBEDDING,),  # the vectors type the engines store
    "graphrag/observations": (),
    "graphrag/evaluation": (),
    # The GitHub edge: the App client, live documents, and which account connected which team source (kept in
    # Neo4j); it knows nothing of packs, retrieval or MCP.
    "graphrag/github": (STORES,),
    "graphrag/guide": (STORES,),  # Browser's guide and style, read from the graph through named queries
    "graphrag/neo4j_local": (GUIDE,),  # the local Neo4j server's files and process, and the guide it installs
    "ingest": (EMBEDDING, STORES, GITHUB),  # team sources are indexed by ingest (ingest/team_*)
    "graphrag/retrieval": (EMBEDDING, STORES),
    "graphrag/memory": (EMBEDDING, STORES, "graphrag.retrieval"),  # its text query and clippable items
    # The server sits on top: it reads through retrieval and memory, and indexes team sources (and watched
    # packs) in its own process through ingest.
    "graphrag/server": (
        EMBEDDING, STORES, GITHUB, "ingest", "graphrag.retrieval", "graphrag.memory", "graphrag.observations",
        "graphrag.evaluation",
    ),
}  # fmt: skip
CLI = "graphrag/cli"


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def ours(name: str) -> str | None:
    """The package of ours a module name belongs to (None for the base modules and for other projects)."""
    parts = name.split(".")
    if parts[0] == "ingest":
        return "ingest"
    if parts[0] == "graphrag" and len(parts) > 1 and (ROOT / "graphrag" / parts[1]).is_dir():
        return f"graphrag.{parts[1]}"
    return None


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_layer_imports_only_what_the_layering_allows(package: str) -> None:
    modules = sorted((ROOT / package).rglob("*.py"))
    assert len(modules) > 1, f"{package} has no modules: a renamed folder would pass unchecked"
    itself = package.replace("/", ".")
    violations = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in modules
        for name in imports(path)
        if ours(name) not in (None, itself, *ALLOWED[package])
        or (package != "graphrag/server" and name.split(".")[0] in MCP)
    ]
    assert violations == []


def test_base_modules_import_no_layer() -> None:
    """``graphrag/*.py`` (settings, errors, names, logging) are what every layer shares: they import none."""
    base = {path.stem for path in (ROOT / "graphrag").glob("*.py")}
    violations = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / "graphrag").glob("*.py"))
        for name in imports(path)
        if name == "ingest"
        or name.startswith("ingest.")
        or (name.startswith("graphrag.") and name.split(".")[1] not in base)
    ]
    assert violations == []


def test_every_package_has_layer_rules() -> None:
    """A new package gets its rules when it is made; only the command line's folder has none."""
    packages = {
        str(path.parent.relative_to(ROOT))
        for path in [*(ROOT / "graphrag").glob("*/*.py"), ROOT / "ingest" / "__init__.py"]
    }
    assert packages - {CLI} == set(ALLOWED)


def runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports when it runs: anywhere in it, but for ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_two_modules_import_each_other() -> None:
    """Two modules that need each other are one idea cut in two, or a half-built object passed around."""
    modules = {
        ".".join(path.with_suffix("").relative_to(ROOT).parts).removesuffix(".__init__"): path
        for folder in ("graphrag", "ingest")
        for path in (ROOT / folder).rglob("*.py")
    }
    edges = {name: runtime_imports(path) & modules.keys() for name, path in modules.items()}
    cycles = sorted(f"{a} <-> {b}" for a, found in edges.items() for b in found if a < b and a in edges[b])
    assert cycles == []


def test_modules_stay_small() -> None:
    """One idea per module: a file past 500 lines is a sign two ideas share it."""
    big = [
        f"{path.relative_to(ROOT)}: {n} lines"
        for folder in ("graphrag", "ingest")
        for path in (ROOT / folder).rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 500
    ]
    assert big == []


def test_functions_stay_short() -> None:
    """A function past 60 lines (its docstring included) does several things: each deserves a name."""
    long = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1} lines"
        for folder in ("graphrag", "ingest")
        for path in (ROOT / folder).rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > 60
    ]
    assert long == []


@pytest.mark.parametrize(
    ("package", "needed_by"), [("githubkit", "a GitHub App"), ("psycopg", "an observations journal")]
)
def test_a_server_imports_a_client_only_where_it_is_configured(package: str, needed_by: str) -> None:
    """A stdio client starts a server per session, so every start counts: githubkit costs it about 0.3 s and
    PostgreSQL's client 0.05 s. Only a deployment with a GitHub App, or with a journal, pays for them
    (``graphrag.github.terms`` holds what the rest needs of GitHub)."""
    probe = f"import sys, graphrag.cli.serve, graphrag.server.app; print({package!r} in sys.modules)"
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert found.stdout.strip() == "False", f"{package} is imported by a server without {needed_by}"
