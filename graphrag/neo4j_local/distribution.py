"""Lay out ``$GRAPHRAG_HOME/neo4j``: the jar closure (once, via Maven), neo4j.conf and the initial password.

Maven is only run when ``lib/`` lacks a stamp matching the bundled pom.xml, so every start
after the first costs no network and no Maven start-up.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from graphrag.errors import StoreUnavailable

POM = Path(__file__).parent / "pom.xml"
STAMP = ".graphrag-pom.sha256"
MIN_JAVA = 17
MAVEN_TIMEOUT_S = 900
# What the first start is doing, as it goes: (line, transient); a transient line is replaced by the next one.
Progress = Callable[[str, bool], None]
# Maven's batch-mode lines for a file fetched from a repository and a jar copied into lib/.
_DOWNLOADED = re.compile(r"Downloaded from [^:]+: \S*/([^/\s]+) \(([\d.]+) (B|kB|KB|MB|GB)")
_UNITS = {"B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9}


@dataclass(frozen=True)
class Layout:
    """Every path under one Neo4j home, so no module spells them twice."""

    home: Path

    @property
    def lib(self) -> Path:
        return self.home / "lib"

    @property
    def conf(self) -> Path:
        return self.home / "conf"

    @property
    def data(self) -> Path:
        return self.home / "data"

    @property
    def logs(self) -> Path:
        return self.home / "logs"

    @property
    def plugins(self) -> Path:
        return self.home / "plugins"

    @property
    def run(self) -> Path:
        return self.home / "run"

    @property
    def pid_file(self) -> Path:
        return self.run / "neo4j.pid"

    @property
    def console_log(self) -> Path:
        return self.logs / "console.log"

    @property
    def maven_log(self) -> Path:
        return self.logs / "maven.log"

    @property
    def store_lock(self) -> Path:
        return self.data / "databases" / "store_lock"

    def make_dirs(self) -> None:
        for path in (self.conf, self.data, self.logs, self.plugins, self.run):
            path.mkdir(parents=True, exist_ok=True)


def neo4j_version() -> str:
    """The Neo4j version pinned in the bundled pom.xml (one place to bump it)."""
    match = re.search(r"<neo4j\.version>([^<]+)</neo4j\.version>", POM.read_text(encoding="utf-8"))
    if match is None:
        raise StoreUnavailable(f"{POM} has no <neo4j.version> property")
    return match.group(1)


def find_java() -> Path:
    """Java from JAVA_HOME, else PATH; Neo4j 5.26 needs Java 17 or newer."""
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home) / "bin" / "java" if java_home else None
    if candidate is None or not candidate.is_file():
        found = shutil.which("java")
        candidate = Path(found) if found else None
    if candidate is None:
        raise StoreUnavailable(
            f"no Java found (JAVA_HOME unset and no java on PATH); Neo4j needs Java {MIN_JAVA}+,"
            " e.g. apt-get install openjdk-17-jre-headless"
        )
    try:
        out = subprocess.run([str(candidate), "-version"], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StoreUnavailable(f"cannot run {candidate} -version: {exc}") from exc
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if match is None:
        raise StoreUnavailable(f"cannot tell the version of {candidate}; Neo4j needs Java {MIN_JAVA}+")
    major = int(match.group(1))
    if major == 1 and match.group(2):  # "1.8.0_..." style
        major = int(match.group(2))
    if major < MIN_JAVA:
        raise StoreUnavailable(
            f"{candidate} is Java {major}; Neo4j 5.26 needs Java {MIN_JAVA}+ (set JAVA_HOME to a newer JDK)"
        )
    return candidate


def _pom_digest() -> str:
    return hashlib.sha256(POM.read_bytes()).hexdigest()


def jars_ready(layout: Layout) -> bool:
    stamp = layout.lib / STAMP
    return stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == _pom_digest()


def silent(line: str, transient: bool) -> None:
    return None


def ensure_jars(layout: Layout, progress: Progress = silent) -> bool:
    """Copy the runtime closure of pom.xml into lib/ unless already there; True if Maven ran.

    Resolves into ``lib.partial`` and renames, so an interrupted download never looks complete. Maven takes
    minutes the first time, so ``progress`` hears what it fetches and copies.
    """
    if jars_ready(layout):
        return False
    mvn = shutil.which("mvn")
    if mvn is None:
        raise StoreUnavailable(
            f"the Neo4j jars are not in {layout.lib} yet and Maven (mvn) is not on PATH;"
            " install Maven 3.8+ (apt-get install maven) and retry"
        )
    layout.make_dirs()
    partial = layout.home / "lib.partial"
    shutil.rmtree(partial, ignore_errors=True)
    pom = layout.home / "pom.xml"  # a copy, so Maven never writes next to an installed package
    shutil.copyfile(POM, pom)
    command = [
        mvn, "-B", "-Dstyle.color=never", "-f", str(pom), "dependency:copy-dependencies",
        "-DincludeScope=runtime", f"-DoutputDirectory={partial}",
    ]  # fmt: skip
    progress(
        f"fetching the Neo4j {neo4j_version()} jars with Maven into {layout.lib} (first start only: about 140 MB,"
        f" a few minutes; later starts reuse them); log: {layout.maven_log}",
        False,
    )
    returncode = _run_maven(command, layout, progress)
    if returncode != 0 or not any(partial.glob("neo4j-server-*.jar")):
        raise StoreUnavailable(
            f"Maven could not fetch the Neo4j jars (is Maven Central reachable?): {_first_error(layout)};"
            f" full log: {layout.maven_log}"
        )
    (partial / STAMP).write_text(_pom_digest() + "\n", encoding="utf-8")
    old = layout.home / "lib.old"
    shutil.rmtree(old, ignore_errors=True)
    if layout.lib.exists():
        layout.lib.rename(old)
    partial.rename(layout.lib)
    shutil.rmtree(old, ignore_errors=True)
    progress(f"the Neo4j jars are in {layout.lib} ({_jar_count(layout)} jars)", False)
    return True


def _jar_count(layout: Layout) -> int:
    return sum(1 for _ in layout.lib.glob("*.jar"))


class MavenWatch:
    """What Maven is doing, from its output lines and the jars already copied, told to ``progress`` on each
    file fetched and once a second (resolving ~200 jars from ~/.m2 prints nothing for half a minute)."""

    def __init__(self, progress: Progress, partial: Path) -> None:
        self._progress = progress
        self._partial = partial
        self._began = time.monotonic()
        self._doing = "starting Maven"
        self._fetched = 0
        self._fetched_bytes = 0.0
        self._lock = threading.Lock()
        self.done = threading.Event()

    def line(self, line: str) -> None:
        if downloaded := _DOWNLOADED.search(line):
            self._fetched += 1
            self._fetched_bytes += float(downloaded.group(2)) * _UNITS[downloaded.group(3)]
            so_far = f"{self._fetched} so far, {self._fetched_bytes / 1e6:.0f} MB"
            self._doing = f"downloaded {downloaded.group(1)} ({so_far})"
            self.tell()
        elif "maven-dependency-plugin" in line:
            self._doing = "resolving the jars Neo4j needs"

    def tell(self) -> None:
        copied = sum(1 for _ in self._partial.glob("*.jar")) if self._partial.is_dir() else 0
        doing = f"copied {copied} jars" if copied else self._doing
        with self._lock:
            self._progress(f"{doing} ({time.monotonic() - self._began:.0f} s)", True)

    def tick(self) -> None:
        while not self.done.wait(1.0):
            self.tell()


def _run_maven(command: list[str], layout: Layout, progress: Progress) -> int:
    """Run Maven with its output in maven.log, telling ``progress`` what it does; killed after ``MAVEN_TIMEOUT_S``."""
    watch = MavenWatch(progress, layout.home / "lib.partial")
    with layout.maven_log.open("w", encoding="utf-8") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        maven = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=layout.home,
            text=True, errors="replace", bufsize=1,
        )  # fmt: skip
        timer = threading.Timer(MAVEN_TIMEOUT_S, maven.kill)
        timer.start()
        ticker = threading.Thread(target=watch.tick, daemon=True)
        ticker.start()
        try:
            for line in maven.stdout or ():
                log.write(line)
                watch.line(line)
            returncode = maven.wait()
        finally:
            watch.done.set()
            ticker.join()
            timed_out = not timer.is_alive()
            timer.cancel()
    if timed_out:
        raise StoreUnavailable(f"Maven took over {MAVEN_TIMEOUT_S} s to fetch the Neo4j jars; see {layout.maven_log}")
    return returncode


def _first_error(layout: Layout) -> str:
    text = re.sub(r"\x1b\[[0-9;]*m", "", layout.maven_log.read_text(encoding="utf-8", errors="replace"))
    for line in text.splitlines():
        _, marker, message = line.partition("[ERROR]")
        if marker and message.strip():
            return message.strip()[:300]
    return "no [ERROR] line"


def write_config(layout: Layout, bolt_port: int, http_port: int, pagecache: str, extra: list[str]) -> None:
    """Regenerate conf/neo4j.conf: loopback only, fixed ports, the page cache asked for (``NEO4J_PAGECACHE_SIZE``),
    no telemetry, and the ``extra`` lines (Browser's guide and style)."""
    layout.make_dirs()
    lines = [
        "# Written by `graphrag neo4j start` on every start: edits here are overwritten.",
        "server.default_listen_address=127.0.0.1",
        "server.default_advertised_address=127.0.0.1",
        f"server.bolt.listen_address=127.0.0.1:{bolt_port}",
        f"server.http.listen_address=127.0.0.1:{http_port}",
        # Advertised too, else discovery names port 7687 and Browser's connect form offers another server.
        f"server.bolt.advertised_address=127.0.0.1:{bolt_port}",
        f"server.http.advertised_address=127.0.0.1:{http_port}",
        "server.https.enabled=false",
        "dbms.security.auth_enabled=true",
        f"server.directories.data={layout.data}",
        f"server.directories.logs={layout.logs}",
        f"server.directories.plugins={layout.plugins}",
        f"server.memory.pagecache.size={pagecache}",
        "dbms.usage_report.enabled=false",
        "db.transaction.timeout=120s",
        *extra,
    ]
    (layout.conf / "neo4j.conf").write_text("\n".join(lines) + "\n", encoding="utf-8")


def initialised(layout: Layout) -> bool:
    """The system database exists once the server has started; the password is fixed from then on."""
    return (layout.data / "databases" / "system").is_dir()


def set_initial_password(layout: Layout, java: Path, password: str) -> None:
    """Before the first start only: later the password lives in the system database."""
    if len(password) < 8:
        raise StoreUnavailable("NEO4J_PASSWORD must have at least 8 characters (Neo4j's minimum)")
    env = {**os.environ, "NEO4J_HOME": str(layout.home), "NEO4J_CONF": str(layout.conf)}
    result = subprocess.run(
        [str(java), "-cp", f"{layout.lib}/*", "org.neo4j.cli.AdminTool",
         "dbms", "set-initial-password", password],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise StoreUnavailable(
            "neo4j-admin dbms set-initial-password failed: " + (detail[-1] if detail else "no output")
        )
