"""`graphrag neo4j start|stop|status` against the real server CI starts with `graphrag neo4j start`.

Nothing here skips: a missing server is a failure, because every graph test depends on it.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from neo4j import GraphDatabase

from graphrag.cli import main
from graphrag.cli.neo4j import neo4j
from graphrag.config import Settings
from graphrag.errors import StoreUnavailable
from graphrag.neo4j_local import distribution, probe


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(neo4j, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def driver():  # type: ignore[no-untyped-def]
    settings = Settings()
    with GraphDatabase.driver(
        settings.neo4j_uri, auth=(settings.neo4j_user, settings.neo4j_password.get_secret_value())
    ) as drv:
        yield drv


def test_status_reports_running() -> None:
    code, out, _ = run("status")
    assert code == 0, out
    assert "is running" in out and f"bolt://127.0.0.1:{probe.bolt_port(Settings().neo4j_uri)}" in out


def test_status_json_parses() -> None:
    code, out, _ = run("status", "--json")
    assert code == 0
    status = json.loads(out)
    assert status["state"] == "running"
    assert isinstance(status["pid"], int)
    assert status["browser"] == f"http://127.0.0.1:{Settings().neo4j_http_port}/browser/"
    assert status["version"].startswith("5.26.")


def test_second_start_is_a_quick_no_op() -> None:
    began = time.monotonic()
    code, out, _ = run("start", "--json")
    assert code == 0, out
    outcome = json.loads(out)
    assert outcome["action"] == "already_running"
    assert outcome["downloaded"] is False
    assert time.monotonic() - began < 10


def test_bolt_answers_return_1(driver) -> None:  # type: ignore[no-untyped-def]
    records, _, _ = driver.execute_query("RETURN 1 AS one")
    assert records[0]["one"] == 1


def test_browser_is_served() -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{Settings().neo4j_http_port}/browser/", timeout=10) as response:
        assert response.status == 200
        html = response.read().decode("utf-8", errors="replace")
    assert "<title>Neo4j Browser</title>" in html


def test_discovery_names_this_servers_bolt_port() -> None:
    """Browser's connect form offers the Bolt address of the discovery document: this server's, not port 7687's."""
    settings = Settings()
    found = probe.discovery(settings.neo4j_http_port)
    assert found is not None and found.neo4j_version.startswith("5.26.")
    assert found.bolt_direct == f"bolt://127.0.0.1:{probe.bolt_port(settings.neo4j_uri)}"


def test_discovery_of_a_silent_port_is_none() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    assert probe.discovery(port, timeout=0.5) is None


def test_vector_index_and_dynamic_labels(driver) -> None:  # type: ignore[no-untyped-def]
    """The two 5.26 features the graph layer relies on, in a throwaway label and index."""
    tag = "SelfTest" + uuid.uuid4().hex[:8]
    index = f"selftest_vec_{tag.lower()}"
    try:
        driver.execute_query(
            f"CREATE VECTOR INDEX {index} FOR (c:{tag}) ON c.embedding OPTIONS {{indexConfig: "
            "{`vector.dimensions`: 4, `vector.similarity_function`: 'cosine'}}"
        )
        rows = [{"id": f"{tag}-a", "e": [1.0, 0.0, 0.0, 0.0]}, {"id": f"{tag}-b", "e": [0.0, 1.0, 0.0, 0.0]}]
        driver.execute_query(f"UNWIND $rows AS r CREATE (:{tag} {{id: r.id, embedding: r.e}})", rows=rows)
        driver.execute_query("CALL db.awaitIndexes(60)")
        records, _, _ = driver.execute_query(
            "CALL db.index.vector.queryNodes($index, 1, $q) YIELD node, score RETURN node.id AS id, score",
            index=index,
            q=[0.9, 0.1, 0.0, 0.0],
        )
        assert records[0]["id"] == f"{tag}-a" and records[0]["score"] > 0.9

        entities = [{"id": f"{tag}-p", "label": tag + "Person"}, {"id": f"{tag}-m", "label": tag + "Mission"}]
        driver.execute_query("UNWIND $rows AS row MERGE (n:Entity {id: row.id}) SET n:$(row.label)", rows=entities)
        driver.execute_query(
            "UNWIND $rows AS row MATCH (a {id: row.a}), (b {id: row.b}) MERGE (a)-[r:$(row.type)]->(b)",
            rows=[{"a": f"{tag}-p", "b": f"{tag}-m", "type": "FLEW_ON"}],
        )
        records, _, _ = driver.execute_query(
            "MATCH (a:Entity {id: $a})-[r]->(b) RETURN labels(a) AS la, type(r) AS t, labels(b) AS lb",
            a=f"{tag}-p",
        )
        assert sorted(records[0]["la"]) == sorted(["Entity", tag + "Person"])
        assert records[0]["t"] == "FLEW_ON"
        assert tag + "Mission" in records[0]["lb"]
    finally:
        driver.execute_query(f"DROP INDEX {index} IF EXISTS")
        driver.execute_query("MATCH (n) WHERE n.id STARTS WITH $tag DETACH DELETE n", tag=tag)


def test_start_on_another_home_reports_taken_port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHRAG_HOME", str(tmp_path))
    code, out, err = run("start")
    assert code == 2
    assert f"{probe.bolt_port(Settings().neo4j_uri)} is already in use" in err and "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "neo4j" / "lib").exists()  # failed before fetching 140 MB


def test_stop_when_not_running_is_a_no_op(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHRAG_HOME", str(tmp_path))
    code, out, _ = run("stop")
    assert code == 0 and "not running" in out
    code, out, _ = run("status", "--json")
    assert code == 3 and json.loads(out)["state"] == "stopped"


def test_remote_uri_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://db.example.org:7687")
    code, _, err = run("status")
    assert code == 2 and err.startswith("Error: unavailable: NEO4J_URI=") and "\n" not in err.strip()


def test_old_java_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    java = tmp_path / "bin" / "java"
    java.parent.mkdir()
    java.write_text("#!/bin/sh\necho 'openjdk version \"11.0.22\" 2024-01-16' >&2\n")
    java.chmod(0o755)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    with pytest.raises(StoreUnavailable, match=r"Java 11; Neo4j 5\.26 needs Java 17"):
        distribution.find_java()


def test_missing_maven_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda _name: None)
    with pytest.raises(StoreUnavailable, match="Maven"):
        distribution.ensure_jars(distribution.Layout(tmp_path))


def test_jars_present_skip_maven() -> None:
    layout = distribution.Layout(Settings().neo4j_home.resolve())
    assert distribution.jars_ready(layout)
    assert distribution.ensure_jars(layout) is False


def test_pom_is_package_data_and_pins_5_26() -> None:
    assert distribution.POM.is_file()
    assert distribution.neo4j_version().startswith("5.26.")


def test_remote_host_port_parsing() -> None:
    assert probe.bolt_port("bolt://127.0.0.1:7687") == 7687
    assert probe.bolt_port("neo4j://localhost") == 7687
    with pytest.raises(StoreUnavailable):
        probe.bolt_port("bolt://db.example.org:7687")


def test_the_first_start_says_what_it_fetches_and_that_it_happens_once(tmp_path: Path) -> None:
    """Maven for real, from the local repository the server's own first start filled (no network here)."""
    told: list[tuple[str, bool]] = []
    layout = distribution.Layout(tmp_path)

    assert distribution.ensure_jars(layout, lambda line, transient: told.append((line, transient))) is True

    kept = [line for line, transient in told if not transient]
    passing = [line for line, transient in told if transient]
    version = distribution.neo4j_version()
    assert kept[0].startswith(f"fetching the Neo4j {version} jars with Maven into {layout.lib} (first start only")
    assert kept[1] == f"the Neo4j jars are in {layout.lib} ({len(list(layout.lib.glob('*.jar')))} jars)"
    assert len(kept) == 2 and passing  # Maven takes seconds even from its local repository: it is seen working
    assert distribution.ensure_jars(layout, lambda line, transient: told.append((line, transient))) is False
    assert len(told) == len(kept) + len(passing)  # the second time: nothing fetched, nothing said


def test_maven_downloads_are_counted_as_they_come(tmp_path: Path) -> None:
    told: list[str] = []
    watch = distribution.MavenWatch(lambda line, transient: told.append(line), tmp_path / "lib.partial")
    for line in (
        "[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/neo4j/neo4j-kernel/5.26.0/x.pom",
        "[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/neo4j/neo4j-kernel/5.26.0/"
        "neo4j-kernel-5.26.0.jar (12 MB at 5.1 MB/s)",
        "[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/neo4j/neo4j-io/5.26.0/"
        "neo4j-io-5.26.0.jar (512 kB at 1.0 MB/s)",
    ):
        watch.line(line)
    assert [line.rsplit(" (", 1)[0] for line in told] == [
        "downloaded neo4j-kernel-5.26.0.jar (1 so far, 12 MB)",
        "downloaded neo4j-io-5.26.0.jar (2 so far, 13 MB)",
    ]


def mebibytes(size: str) -> float:
    """``512m``, ``1g`` (a setting) or ``512.00MiB``, ``1.00GiB`` (as Neo4j shows it) in MiB."""
    number, unit = float(size.rstrip("mgMGiB")), size.rstrip("iB")[-1].lower()
    return number * (1024 if unit == "g" else 1)


def test_the_server_runs_with_the_configured_heap_and_page_cache(driver) -> None:  # type: ignore[no-untyped-def]
    settings = Settings()
    records, _, _ = driver.execute_query(
        "SHOW SETTINGS YIELD name, value WHERE name = 'server.memory.pagecache.size' RETURN value"
    )
    assert mebibytes(records[0]["value"]) == mebibytes(settings.neo4j_pagecache_size)
    records, _, _ = driver.execute_query(
        "CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes "
        "RETURN attributes.HeapMemoryUsage.value.properties.max AS max"
    )
    assert records[0]["max"] / 2**20 == mebibytes(settings.neo4j_heap_size)


def test_a_bad_memory_size_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_HEAP_SIZE", "4 GB")
    result = CliRunner().invoke(main, ["neo4j", "start"])
    assert result.exit_code == 2 and result.stderr.strip().splitlines() == [
        "error: setting NEO4J_HEAP_SIZE: String should match pattern '^[1-9][0-9]*[mMgG]$'"
    ]
