"""Start, stop and inspect the local Neo4j server as a detached JVM tracked by a pid file.

The server must outlive the CLI that starts it, so it runs in its own session with its
output in ``logs/console.log``; every later command finds it again through
``run/neo4j.pid``, checked against ``/proc/<pid>/cmdline`` so a recycled pid is never
mistaken for it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from graphrag.config import Settings
from graphrag.errors import StoreUnavailable
from graphrag.neo4j_local import browser, probe
from graphrag.neo4j_local import distribution as dist

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 60.0
# A bare JVM launch ignores server.memory.heap.* and server.jvm.additional: these are
# Neo4j's own defaults from its shipped neo4j.conf; the heap is NEO4J_HEAP_SIZE (1g by default: a shared
# 2-core box), given as -Xmx beside these.
JVM_FLAGS = [
    "-XX:+UseG1GC", "-XX:-OmitStackTraceInFastThrow",
    "-XX:+ExitOnOutOfMemoryError", "-XX:+DisableExplicitGC",
    "-XX:+UnlockExperimentalVMOptions", "-XX:+TrustFinalNonStaticFields",
    "-Djdk.nio.maxCachedBufferSize=1024", "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048", "-Dlog4j2.disable.jmx=true", "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
]  # fmt: skip
LOG_HINTS = (  # (substring of a start-up failure in the log, what to tell the user)
    ("FileLockException", "the data folder is locked by another Neo4j process"),
    ("already locked", "the data folder is locked by another Neo4j process"),
    ("Address already in use", "a port (Bolt or HTTP) is already in use by another process"),
    ("OutOfMemoryError", "the JVM ran out of memory"),
    ("Unrecognized setting", "neo4j.conf has a setting this Neo4j does not know"),
)


@dataclass(frozen=True)
class Status:
    """What ``graphrag neo4j status`` reports; ``state`` is running, starting, auth_failed or stopped."""

    state: str
    pid: int | None
    home: str
    bolt: str
    http: str
    browser: str
    version: str
    log: str
    note: str = ""


@dataclass(frozen=True)
class Outcome:
    """What start and stop did: ``action`` is started, already_running, stopped or not_running."""

    action: str
    pid: int | None
    seconds: float
    status: Status
    downloaded: bool = False
    killed: bool = False


def layout_of(settings: Settings) -> dist.Layout:
    return dist.Layout(settings.neo4j_home.expanduser().resolve())


def _cmdline(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return raw.decode(errors="replace").split("\0")


def _is_ours(pid: int, layout: dist.Layout) -> bool:
    args = _cmdline(pid)
    return ENTRY_POINT in args and f"--home-dir={layout.home}" in args and _alive(pid)


def _alive(pid: int) -> bool:
    """True unless gone or a zombie (reaping it when it is our own child, e.g. in tests)."""
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def find_pid(layout: dist.Layout) -> int | None:
    """The server's pid from the pid file, else from a /proc scan (pid file lost or stale)."""
    with contextlib.suppress(OSError, ValueError):
        pid = int(layout.pid_file.read_text().strip())
        if _is_ours(pid, layout):
            return pid
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _is_ours(int(entry.name), layout):
            return int(entry.name)
    return None


def status(settings: Settings) -> Status:
    layout = layout_of(settings)
    port = probe.bolt_port(settings.neo4j_uri)
    pid = find_pid(layout)
    note = ""
    if pid is None:
        state = "stopped"
        if probe.port_open(port):
            note = f"port {port} is held by another process, not by the server under {layout.home}"
    else:
        bolt = probe.bolt_state(settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password.get_secret_value())
        state = {"ok": "running", "down": "starting", "auth_failed": "auth_failed"}[bolt]
        if bolt == "auth_failed":
            note = "Bolt rejects NEO4J_USER/NEO4J_PASSWORD (the password was fixed at first start)"
    return Status(
        state=state, pid=pid, home=str(layout.home), bolt=f"bolt://127.0.0.1:{port}",
        http=f"http://127.0.0.1:{settings.neo4j_http_port}",
        browser=f"http://127.0.0.1:{settings.neo4j_http_port}/browser/",
        version=dist.neo4j_version(), log=str(layout.console_log), note=note,
    )  # fmt: skip


@contextlib.contextmanager
def _start_lock(layout: dist.Layout) -> Iterator[None]:
    """Serialise concurrent ``start``s on one home, so two never race to launch two servers."""
    layout.run.mkdir(parents=True, exist_ok=True)
    with (layout.run / "start.lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def start(settings: Settings, timeout: float = START_TIMEOUT_S, progress: dist.Progress = dist.silent) -> Outcome:
    """Start the server unless it runs already; return once Bolt answers ``RETURN 1`` and Browser's origin answers.
    ``progress`` hears what the first start fetches (minutes)."""
    began = time.monotonic()
    layout = layout_of(settings)
    port = probe.bolt_port(settings.neo4j_uri)
    with _start_lock(layout):
        pid = find_pid(layout)
        if pid is not None:
            _wait_until_ready(settings, layout, pid, None, began + timeout, 0)
            return Outcome("already_running", pid, _since(began), status(settings))
        java = dist.find_java()
        for taken in (port, settings.neo4j_http_port):
            if probe.port_open(taken):
                raise StoreUnavailable(
                    f"port {taken} is already in use by another process (not the Neo4j under {layout.home});"
                    f" find it with: ss -ltnp 'sport = :{taken}'"
                )
        if probe.store_locked(layout.store_lock):
            raise StoreUnavailable(f"the data folder {layout.data} is locked by another Neo4j server; stop it first")
        downloaded = dist.ensure_jars(layout, progress)
        browser.ensure_bundle(layout)
        dist.write_config(
            layout,
            port,
            settings.neo4j_http_port,
            settings.neo4j_pagecache_size,
            browser.config_lines(layout, settings.neo4j_http_port),
        )
        if not dist.initialised(layout):
            dist.set_initial_password(layout, java, settings.neo4j_password.get_secret_value())
        proc, log_offset = _launch(layout, java, settings.neo4j_heap_size)
        _wait_until_ready(settings, layout, proc.pid, proc, began + timeout, log_offset)
        return Outcome("started", proc.pid, _since(began), status(settings), downloaded=downloaded)


def _launch(layout: dist.Layout, java: Path, heap: str) -> tuple[subprocess.Popen[bytes], int]:
    """Spawn the JVM in its own session (immune to the terminal's Ctrl-C and hang-up)."""
    classpath = f"{layout.plugins}/*:{layout.conf}/*:{layout.lib}/*"
    command = [
        str(java), f"-Xms{_initial_heap(heap)}", f"-Xmx{heap}", *JVM_FLAGS, "-cp", classpath, ENTRY_POINT,
        f"--home-dir={layout.home}", f"--config-dir={layout.conf}", "--console-mode",
    ]  # fmt: skip
    env = {**os.environ, "NEO4J_HOME": str(layout.home), "NEO4J_CONF": str(layout.conf)}
    with layout.console_log.open("ab") as log:
        offset = log.tell()
        log.write(f"\n==== graphrag neo4j start {time.strftime('%Y-%m-%dT%H:%M:%S')} ====\n".encode())
        log.flush()
        proc = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            cwd=layout.home, env=env, start_new_session=True, close_fds=True,
        )  # fmt: skip
    layout.pid_file.write_text(f"{proc.pid}\n")
    return proc, offset


def _initial_heap(heap: str) -> str:
    """Half the heap, as Neo4j's defaults had it (512m of 1g), so a large heap is not all taken at start."""
    megabytes = int(heap[:-1]) * (1024 if heap[-1] in "gG" else 1)
    return f"{max(1, megabytes // 2)}m"


def _wait_until_ready(
    settings: Settings,
    layout: dist.Layout,
    pid: int,
    proc: subprocess.Popen[bytes] | None,
    deadline: float,
    log_offset: int,
) -> None:
    """Poll Bolt, then HTTP, until both answer, failing fast if the JVM dies and after ``deadline``.

    Neo4j 5.26 answers on Bolt about 2 s before its HTTP side (Browser and its discovery document) is up."""
    password = settings.neo4j_password.get_secret_value()
    while True:
        dead = proc.poll() is not None if proc is not None else not _alive(pid)
        if dead:
            layout.pid_file.unlink(missing_ok=True)
            raise StoreUnavailable(f"Neo4j exited during start-up: {_diagnose(layout, log_offset)}")
        state = probe.bolt_state(settings.neo4j_uri, settings.neo4j_user, password)
        if state == "ok" and probe.discovery(settings.neo4j_http_port) is not None:
            return
        if state == "auth_failed":
            raise StoreUnavailable(
                f"Neo4j (pid {pid}) runs but rejects NEO4J_USER/NEO4J_PASSWORD; the password was fixed"
                f" at first start: use that one, or stop the server and delete {layout.data} to start afresh"
            )
        if time.monotonic() > deadline:
            raise StoreUnavailable(
                f"Neo4j (pid {pid}) did not answer on Bolt and HTTP within {START_TIMEOUT_S:.0f} s; it may still be"
                f" starting (`graphrag neo4j status`), see {layout.console_log}; `graphrag neo4j stop` stops it"
            )
        time.sleep(0.5)


def _diagnose(layout: dist.Layout, offset: int) -> str:
    """The most telling line of this launch's log, plus where the whole log is."""
    try:
        with layout.console_log.open("rb") as log:
            log.seek(offset)
            text = log.read().decode(errors="replace")
    except OSError:
        text = ""
    for needle, meaning in LOG_HINTS:
        if needle in text:
            return f"{meaning}; see {layout.console_log}"
    errors = [line.strip() for line in text.splitlines() if "ERROR" in line or "Exception" in line]
    last = errors[-1][:300] if errors else "no error line in the log"
    return f"{last}; see {layout.console_log} and {layout.logs / 'debug.log'}"


def stop(settings: Settings, timeout: float = STOP_TIMEOUT_S) -> Outcome:
    """SIGTERM (Neo4j checkpoints and shuts down cleanly), then SIGKILL after ``timeout``."""
    began = time.monotonic()
    layout = layout_of(settings)
    pid = find_pid(layout)
    if pid is None:
        layout.pid_file.unlink(missing_ok=True)
        return Outcome("not_running", None, _since(began), status(settings))
    killed = False
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    if not _wait_gone(pid, timeout):
        killed = True
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        if not _wait_gone(pid, 15.0):
            raise StoreUnavailable(f"Neo4j (pid {pid}) survived SIGKILL; check `ps -p {pid}`")
    layout.pid_file.unlink(missing_ok=True)
    return Outcome("stopped", pid, _since(began), status(settings), killed=killed)


def _since(began: float) -> float:
    return round(time.monotonic() - began, 2)


def _wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True
