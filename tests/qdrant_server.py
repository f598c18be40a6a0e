"""A real Qdrant server for the tests: one process per node, its config written here, its storage in a folder
of the test run, on free loopback ports; killed with -9 or stopped with the test. The binary comes from
``--qdrant-server PATH`` (an executable, or its ``.gz`` as released for CI)."""

from __future__ import annotations

import gzip
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

START_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def unpacked(binary: Path, folder: Path) -> Path:
    """The executable itself, or one unpacked from its ``.gz`` into ``folder``."""
    if binary.suffix != ".gz":
        return binary
    target = folder / binary.stem
    if not target.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with gzip.open(binary) as packed, target.open("wb") as out:
            shutil.copyfileobj(packed, out)
        target.chmod(0o755)
    return target


@dataclass
class QdrantNode:
    """One server: ``start()`` it alone, or as a cluster's peer (``p2p``) joining ``bootstrap``."""

    binary: Path
    home: Path
    p2p: bool = False
    http_port: int = field(default_factory=free_port)
    grpc_port: int = field(default_factory=free_port)
    p2p_port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def peer_uri(self) -> str:
        return f"http://127.0.0.1:{self.p2p_port}"

    def start(self, bootstrap: QdrantNode | None = None) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        config = self.home / "config.yaml"
        config.write_text(
            "log_level: WARN\n"
            "telemetry_disabled: true\n"
            f"storage:\n  storage_path: {self.home / 'storage'}\n  snapshots_path: {self.home / 'snapshots'}\n"
            f"service:\n  host: 127.0.0.1\n  http_port: {self.http_port}\n  grpc_port: {self.grpc_port}\n"
            f"cluster:\n  enabled: {'true' if self.p2p else 'false'}\n  p2p:\n    port: {self.p2p_port}\n",
            encoding="utf-8",
        )
        command = [str(self.binary), "--config-path", str(config)]
        if self.p2p:
            command += ["--uri", self.peer_uri]
            if bootstrap is not None:
                command += ["--bootstrap", bootstrap.peer_uri]
        log = (self.home / "qdrant.log").open("ab")
        # its own working folder: the server looks for ./config and ./static there
        self.process = subprocess.Popen(command, cwd=self.home, stdout=log, stderr=log, env={**os.environ})
        self.wait_ready()

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"Qdrant exited at start: {(self.home / 'qdrant.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"Qdrant did not start in {START_SECONDS:.0f}s at {self.url}")

    def kill(self) -> None:
        """As a crash does: -9, nothing flushed."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def shard_states(self, collection: str) -> list[str]:
        """The state of every copy of every shard of ``collection``, as this peer sees the cluster."""
        found = httpx.get(f"{self.url}/collections/{collection}/cluster", timeout=30).json()["result"]
        return [shard["state"] for shard in (*found["local_shards"], *found["remote_shards"])]

    def wait_active(self, collection: str) -> None:
        """Until every copy of every shard is active again (a returning peer has caught up)."""
        deadline = time.monotonic() + START_SECONDS
        while set(self.shard_states(collection)) != {"Active"}:
            if time.monotonic() > deadline:
                raise RuntimeError(f"shards not active in {START_SECONDS:.0f}s: {self.shard_states(collection)}")
            time.sleep(0.2)

    def wipe(self) -> None:
        """An empty server for the next test: every collection deleted."""
        found = httpx.get(f"{self.url}/collections", timeout=30).json()["result"]["collections"]
        for collection in found:
            httpx.delete(f"{self.url}/collections/{collection['name']}", timeout=30).raise_for_status()
