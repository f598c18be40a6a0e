"""Fixtures: the real Neo4j (fails when missing), embedded Qdrant in a temporary folder, real embedder.

The suite deletes everything in the Neo4j it is given, so it refuses a database that holds data
it did not create: run it with ``make test``, which starts a server of its own on port 7688.

Tests marked ``fast`` form the fast tier (``make test-fast``): pure code on in-memory data, run in seconds
without Java, PostgreSQL or the embedding model. A fast test that asks for a store is refused at collection.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag.config import Settings
from graphrag.embedding import Embedder, load_embedder
from graphrag.errors import StoreUnavailable
from graphrag.stores.graph import GraphStore
from ingest.pipeline import ingest
from ingest.report import IngestReport

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# The fixtures every store of the suite comes from (Neo4j, the embedding model, the PostgreSQL cluster).
STORE_FIXTURES = frozenset({"neo4j_store", "embedder", "journal_dsns"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--corpus", default=None, help="Folder of real packs (tests marked `corpus` use it).")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """``-m fast`` leaves unread the test modules that mark nothing fast: importing them (the MCP client, GitHub's,
    Selenium) would cost the fast tier more than its tests."""
    if config.getoption("markexpr") != "fast" or not collection_path.name.startswith("test_"):
        return None
    if collection_path.suffix != ".py" or "mark.fast" in collection_path.read_text(encoding="utf-8"):
        return None
    return True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test of the fast tier may not need a store, even through another fixture."""
    for item in items:
        needs = STORE_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        if needs and item.get_closest_marker("fast"):
            raise pytest.UsageError(f"{item.nodeid} is marked fast but needs {', '.join(sorted(needs))}")


@pytest.fixture(scope="session")
def corpus(request: pytest.FixtureRequest) -> Path:
    value = request.config.getoption("--corpus")
    if not value:
        pytest.skip("needs --corpus PATH (a folder holding real packs)")
    return Path(value)


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return load_embedder("use-multilingual-v3")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Each test gets its own embedded Qdrant folder; Neo4j comes from NEO4J_URI."""
    return Settings(graphrag_home=tmp_path / "home")


@pytest.fixture(scope="session")
def neo4j_store() -> Iterator[GraphStore]:
    settings = Settings()
    try:
        store = GraphStore.connect(settings)
    except StoreUnavailable as exc:
        pytest.fail(f"the tests need a running Neo4j (`make test` starts one): {exc}")
    foreign = store.read("test_foreign_nodes")[0]["foreign"]
    if foreign:
        store.close()
        pytest.fail(
            f"Neo4j at {settings.neo4j_uri} holds {foreign} nodes the tests did not create, and the tests "
            "delete everything: run them with `make test` (a server of their own on port 7688)"
        )
    store.write("test_mark")
    yield store
    store.close()


@pytest.fixture
def graph(neo4j_store: GraphStore) -> GraphStore:
    """The real Neo4j, emptied before the test (the marker that makes it ours stays)."""
    neo4j_store.run_auto_commit("test_wipe")
    neo4j_store.write("test_mark")
    neo4j_store.ensure_schema()
    return neo4j_store


@pytest.fixture
def pack_copy(tmp_path: Path) -> Iterator[Path]:
    """A writable copy of the example pack, for tests that edit, break or delete files."""
    target = tmp_path / "space-missions"
    shutil.copytree(EXAMPLES / "space-missions", target)
    yield target


@pytest.fixture
def run_ingest(graph: GraphStore, settings: Settings, embedder: Embedder):  # type: ignore[no-untyped-def]
    def run(*packs: Path, embedder_override: Embedder | None = None) -> IngestReport:
        return ingest(list(packs), settings, embedder=embedder_override or embedder)

    return run
