"""Fixtures: the real Neo4j (fails when missing), embedded Qdrant in a temporary folder, real embedder.

The suite deletes everything in the Neo4j it is given, so it refuses a database that holds data
it did not create: run it with ``make test``, which starts a server of its own on port 7688.

Tests marked ``fast`` form the fast tier (``make test-fast``): pure code on in-memory data, run in seconds
without Java, PostgreSQL or the embedding model. A fast test that asks for a store is refused at collection.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from graphrag.config import Settings
from graphrag.embedding import Embedder, load_embedder
from graphrag.errors import StoreUnavailable
from graphrag.stores.edge import COLLECTION
from graphrag.stores.graph import GraphStore
from ingest.pipeline import ingest
from ingest.report import IngestReport
from tests.qdrant_server import QdrantNode, unpacked

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# The fixtures every store of the suite comes from (Neo4j, the embedding model, the PostgreSQL cluster).
STORE_FIXTURES = frozenset({"neo4j_store", "embedder", "journal_dsns", "qdrant_binary"})
# The vector engines a test marked ``engines`` runs on: the embedded Edge shard, and a real Qdrant server.
ENGINES = ("edge", "server")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--corpus", default=None, help="Folder of real packs (tests marked `corpus` use it).")
    parser.addoption(
        "--qdrant-server",
        default=None,
        help="The Qdrant server binary, or its .gz (tests marked `engines` run on it too, and the cluster tests).",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked ``engines`` runs once on each vector engine (its ``settings`` say which)."""
    if metafunc.definition.get_closest_marker("engines") and "settings" in metafunc.fixturenames:
        metafunc.parametrize("settings", ENGINES, indirect=True)


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


@pytest.fixture(scope="session")
def qdrant_binary(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Qdrant server to run; missing, the tests that need it skip (fail under CI=true)."""
    given = request.config.getoption("--qdrant-server")
    if not given or not Path(given).is_file():
        message = f"needs --qdrant-server PATH (a Qdrant server binary or its .gz); given: {given or 'none'}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return unpacked(Path(given), tmp_path_factory.mktemp("qdrant-bin"))


@pytest.fixture(scope="session")
def qdrant_server(qdrant_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[QdrantNode]:
    """One Qdrant server for the session, on ports of its own; each test that uses it starts it empty."""
    node = QdrantNode(qdrant_binary, tmp_path_factory.mktemp("qdrant-server"))
    node.start()
    yield node
    node.stop()


@pytest.fixture
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Each test gets its own embedded Qdrant folder, or (``engines`` tests, once each) an emptied Qdrant
    server; Neo4j comes from NEO4J_URI."""
    own = Settings(graphrag_home=tmp_path / "home")
    if getattr(request, "param", "edge") == "edge":
        return own
    server: QdrantNode = request.getfixturevalue("qdrant_server")
    server.wipe()
    return own.model_copy(update={"qdrant_url": server.url})


def lose_vectors(settings: Settings) -> None:
    """The vector collection gone, as a wiped disk or a dropped server collection leaves it."""
    if settings.qdrant_url:
        httpx.delete(f"{settings.qdrant_url}/collections/{COLLECTION}", timeout=30).raise_for_status()
    else:
        shutil.rmtree(settings.qdrant_path)


def vectors_where(settings: Settings) -> str:
    """Where the test's vectors are, as the service names it."""
    return settings.qdrant_url or str(settings.qdrant_path)


def store_env(settings: Settings) -> dict[str, str]:
    """The environment of a command or server run beside the test, on the test's stores."""
    env = {**os.environ, "GRAPHRAG_HOME": str(settings.graphrag_home)}
    env.pop("QDRANT_URL", None)
    if settings.qdrant_url:
        env["QDRANT_URL"] = settings.qdrant_url
    return env


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
