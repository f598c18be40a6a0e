"""Serve the guide and the style from the local server itself, beside Neo4j Browser.

Neo4j 5.26 serves Browser from a ``neo4j-browser*.zip`` in its web folder (``internal.dbms.web_dir_path``)
when there is one, else from the jar. So ``start`` writes such a zip: the Browser of ``lib/`` plus
``graphrag/guide.html`` and ``graphrag/style.grass``; Browser then fetches them from its own origin at
connect. The server unpacks the zip's first entry as Browser's root and creates no missing folders, so
every folder is an entry and ``browser/`` comes first. The zip is rebuilt only when its inputs change.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

from graphrag.errors import StoreUnavailable
from graphrag.guide.content import GUIDE_FILE, STYLE_FILE, guide_html, post_connect_command, style_grass
from graphrag.neo4j_local.distribution import Layout

ROOT = "browser/"
FOLDER = "graphrag"
BUNDLE = "neo4j-browser.zip"
STAMP = ".graphrag-browser.sha256"


def web_dir(layout: Layout) -> Path:
    return layout.home / "web"


def base_url(http_port: int) -> str:
    """Where Browser finds the guide and the style (any name of this machine works: they allow every origin)."""
    return f"http://127.0.0.1:{http_port}/browser/{FOLDER}"


def config_lines(layout: Layout, http_port: int) -> list[str]:
    """The neo4j.conf lines that make Browser apply the style and open the guide at connect."""
    return [
        f"internal.dbms.web_dir_path={web_dir(layout)}",
        f"browser.post_connect_cmd={post_connect_command(base_url(http_port))}",
        # Neo4j 5.26's name for what later releases call browser.remote_content_hostname_allowlist.
        "browser.remote_content_hostname_whitelist=127.0.0.1,localhost,guides.neo4j.com",
        "client.allow_telemetry=false",
    ]


def ensure_bundle(layout: Layout) -> bool:
    """Write ``web/neo4j-browser.zip`` unless it is up to date; True if it was (re)written."""
    jars = sorted(layout.lib.glob("neo4j-browser-*.jar"))
    if not jars:
        raise StoreUnavailable(f"no neo4j-browser jar in {layout.lib}; delete {layout.lib} to fetch the jars again")
    extra = {GUIDE_FILE: guide_html(), STYLE_FILE: style_grass()}
    digest = hashlib.sha256(jars[-1].name.encode())
    for name, text in sorted(extra.items()):
        digest.update(f"\0{name}\0{text}".encode())
    folder = web_dir(layout)
    stamp = folder / STAMP
    if stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest.hexdigest():
        return False
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / (BUNDLE + ".partial")
    with zipfile.ZipFile(jars[-1]) as source, zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED) as bundle:
        for info in source.infolist():  # jar order: every folder before its files
            if info.filename.startswith(ROOT):
                bundle.writestr(info.filename, b"" if info.is_dir() else source.read(info))
        bundle.writestr(f"{ROOT}{FOLDER}/", b"")
        for name, text in extra.items():
            bundle.writestr(f"{ROOT}{FOLDER}/{name}", text)
    partial.replace(folder / BUNDLE)
    stamp.write_text(digest.hexdigest() + "\n", encoding="utf-8")
    return True
