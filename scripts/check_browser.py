"""Check Neo4j Browser as an analyst meets it, in a real headless Chromium: connect to the local server, see the
guide open, set its parameters, run its first question, and save screenshots.

Needs a running local server (`graphrag neo4j start`) with a pack ingested; reads NEO4J_URI, NEO4J_HTTP_PORT and
NEO4J_PASSWORD like the service. Fails (exit 1) unless the guide opens at connect, the first question draws a
graph without the pack hub, and placeholders are drawn apart from real entities.

    .venv/bin/python -m scripts.check_browser --out .graphrag/screenshots
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from graphrag.config import Settings
from graphrag.guide.content import QUESTIONS, title_and_text
from graphrag.stores.cypher import query
from scripts.headless import chromium

WAIT_S = 60
MISSING_STROKE = "#d0342c"  # graphrag/guide/style.grass: node.Missing border-color
PACK_FILL = "#2b2d42"  # and node.Pack color
# Every node Browser draws: its caption, fill and outline.
NODES_JS = """
return Array.from(document.querySelectorAll('svg g.node')).map(g => {
  const ring = g.querySelector('circle.b-outline') || g.querySelector('circle');
  return {caption: g.textContent.trim(), fill: (ring && ring.getAttribute('fill') || '').toLowerCase(),
          stroke: (ring && ring.getAttribute('stroke') || '').toLowerCase()};
});
"""


def run_editor(driver: Any, block: Any) -> None:
    """Click a guide block (Browser puts it in the editor), then the editor's run button."""
    block.click()
    time.sleep(0.5)
    driver.find_element(By.CSS_SELECTOR, "[data-testid='editor-Run']").click()


def check(out: Path) -> list[str]:
    """Problems seen (none: all is well); a step that never happens leaves ``browser-failed.png`` behind."""
    settings = Settings()
    bolt = urlsplit(settings.neo4j_uri)
    url = f"http://127.0.0.1:{settings.neo4j_http_port}/browser/?dbms=neo4j://{settings.neo4j_user}@{bolt.hostname}:{bolt.port}"
    first_title, _ = title_and_text(query(QUESTIONS[0]))
    out.mkdir(parents=True, exist_ok=True)
    with chromium() as driver:
        try:
            return steps(driver, url, first_title, out, settings.neo4j_password.get_secret_value())
        except TimeoutException as exc:
            driver.save_screenshot(str(out / "browser-failed.png"))
            return [f"a step timed out after {WAIT_S} s ({exc.msg or 'waiting'}); see {out / 'browser-failed.png'}"]


def steps(driver: Any, url: str, first_title: str, out: Path, password_text: str) -> list[str]:
    problems: list[str] = []
    wait = WebDriverWait(driver, WAIT_S)
    driver.get(url)
    password = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "input[data-testid='password']"))
    password.send_keys(password_text)
    driver.find_element(By.CSS_SELECTOR, "button[data-testid='connect']").click()
    blocks = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "pre.runnable"))
    time.sleep(2)  # the style frame and the guide's fonts settle
    driver.save_screenshot(str(out / "browser-guide.png"))
    if first_title not in driver.find_element(By.TAG_NAME, "body").text:
        problems.append(f"the guide did not open at connect (no {first_title!r} on the page)")
    run_editor(driver, blocks[0])  # :param [...] => { cypher/browser_examples }
    wait.until(lambda d: '"other":' in d.find_element(By.TAG_NAME, "body").text)  # the :param frame
    run_editor(driver, blocks[1])  # the first question
    nodes = wait.until(lambda d: d.execute_script(NODES_JS))
    time.sleep(3)  # the force layout settles
    nodes = driver.execute_script(NODES_JS)
    driver.save_screenshot(str(out / "browser-first-question.png"))
    placeholders = [n for n in nodes if n["stroke"] == MISSING_STROKE]
    print(
        f"guide opened; first question drew {len(nodes)} nodes, {len(placeholders)} placeholders; screenshots in {out}"
    )
    if not nodes:
        problems.append("the first question drew no graph")
    if not placeholders:
        problems.append(f"no placeholder drawn apart (outline {MISSING_STROKE}) among {nodes}")
    if any(n["fill"] == "#ffffff" and n not in placeholders for n in nodes):
        problems.append("a real entity is drawn white, like a placeholder")
    if any(n["fill"] == PACK_FILL for n in nodes):
        problems.append("the first question drew a pack: its walk ran through the pack hub")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(".graphrag/screenshots"), help="Folder for the screenshots.")
    problems = check(parser.parse_args().out)
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
