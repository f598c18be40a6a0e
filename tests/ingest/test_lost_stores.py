"""A store that stops answering in the middle of ``graphrag ingest`` or ``graphrag watch``: one line naming it
and exit 2, as when it is down at the start (exit 1 means "files rejected"), never a traceback.

Real stores only: Neo4j is reached through a TCP relay that the test cuts once the run is writing (to the
driver, what a killed server looks like), and Qdrant is a server address where nothing listens.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

from graphrag.config import Settings
from graphrag.stores.graph import GraphStore
from tests.ingest.test_hostile_ingest import put

NEO4J_LOST = "error: unavailable: Neo4j stopped answering; start it with `graphrag neo4j start` and retry"
QDRANT_LOST = "error: unavailable: the Qdrant server stopped answering; check QDRANT_URL and retry"


class Relay:
    """Forwards TCP connections to ``target``; once ``after`` bytes have gone to it, drops every connection
    and stops listening."""

    def __init__(self, target: tuple[str, int], after: int) -> None:
        self._target = target
        self._left = after
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self.cut = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.cut.is_set():
            try:
                client, _ = self._listener.accept()
                server = socket.create_connection(self._target)
            except OSError:
                return
            with self._lock:
                self._sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, counted: bool) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
                if counted:
                    with self._lock:
                        self._left -= len(data)
                        over = self._left <= 0
                    if over:
                        self.close()
        except OSError:
            pass

    def close(self) -> None:
        self.cut.set()
        with self._lock:
            for sock in [self._listener, *self._sockets]:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return int(probe.getsockname()[1])


def graphrag(*args: str, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "graphrag.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=timeout,
    )


def generated_pack(root: Path, files: int) -> Path:
    """Entities with short summaries (cheap to embed) and long bodies (large graph writes)."""
    for n in range(files):
        body = f"Entity {n} of a generated pack. " * 250
        front = f"id: GEN.{n}\ntitle: Generated {n}\nsummary: Number {n}.\nrelated:\n  uses: GEN.{n + 1}"
        put(root, f"e{n:04}.md", f"---\n{front}\n---\n{body}\n")
    return root


def test_neo4j_killed_mid_ingest_is_one_line_and_exit_2(graph: GraphStore, tmp_path: Path) -> None:
    target = urlsplit(Settings().neo4j_uri)
    # The run reads a few kB before it writes; 256 kB in, it is writing entities (about 8 kB each).
    relay = Relay((target.hostname or "127.0.0.1", target.port or 7687), after=256 * 1024)
    try:
        done = graphrag(
            "ingest",
            str(generated_pack(tmp_path / "gen", 100)),
            env={"NEO4J_URI": f"bolt://127.0.0.1:{relay.port}", "GRAPHRAG_HOME": str(tmp_path / "home")},
        )
    finally:
        relay.close()

    assert relay.cut.is_set()
    assert (done.returncode, done.stderr.splitlines()[-1:]) == (2, [NEO4J_LOST]), done.stderr[-3000:]
    assert "Traceback" not in done.stderr


def test_qdrant_server_gone_mid_ingest_is_one_line_and_exit_2(graph: GraphStore, tmp_path: Path) -> None:
    """Qdrant is first reached after Neo4j was read, when there are vectors to write."""
    env = {"QDRANT_URL": f"http://127.0.0.1:{free_port()}", "GRAPHRAG_HOME": str(tmp_path / "home")}

    done = graphrag("ingest", str(generated_pack(tmp_path / "gen", 3)), env=env)

    assert (done.returncode, done.stderr.splitlines()[-1:]) == (2, [QDRANT_LOST]), done.stderr[-3000:]
    assert "Traceback" not in done.stderr


def test_a_store_gone_while_watching_is_one_line_and_exit_2(graph: GraphStore, tmp_path: Path) -> None:
    env = {"QDRANT_URL": f"http://127.0.0.1:{free_port()}", "GRAPHRAG_HOME": str(tmp_path / "home")}

    done = graphrag("watch", str(generated_pack(tmp_path / "gen", 3)), env=env)

    assert (done.returncode, done.stderr.splitlines()[-1:]) == (2, [QDRANT_LOST]), done.stderr[-3000:]
    assert "Traceback" not in done.stderr


def test_neo4j_killed_while_watching_is_one_line_and_exit_2(graph: GraphStore, tmp_path: Path) -> None:
    target = urlsplit(Settings().neo4j_uri)
    relay = Relay((target.hostname or "127.0.0.1", target.port or 7687), after=2**40)
    pack = generated_pack(tmp_path / "gen", 3)
    env = {"NEO4J_URI": f"bolt://127.0.0.1:{relay.port}", "GRAPHRAG_HOME": str(tmp_path / "home")}
    watching = subprocess.Popen(
        [sys.executable, "-m", "graphrag.cli", "watch", str(pack)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )
    try:
        assert watching.stderr is not None
        while "watching" not in (line := watching.stderr.readline()):
            assert line, "graphrag watch ended before it watched"
        relay.close()
        put(pack, "e0000.md", "---\nid: GEN.0\ntitle: Saved after Neo4j went away\n---\n")
        _, stderr = watching.communicate(timeout=120)
    finally:
        relay.close()
        if watching.poll() is None:
            watching.kill()
            watching.wait()

    assert (watching.returncode, stderr.splitlines()[-1:]) == (2, [NEO4J_LOST]), stderr[-3000:]
    assert "Traceback" not in stderr
