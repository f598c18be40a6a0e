"""Check Neo4j Browser as an analyst meets it, in a real headless Chromium: connect to the local server, see the
guide open, set its parameters, run its first question, and save screenshots.

Needs a running local server (`graphrag neo4j start`) with a pack ingested; reads NEO4J_URI, NEO4J_HTTP_PORT and
NEO4J_PASSWORD like the service. Fails (exit 1) unless Browser connects, the guide opens by itself at connect
(the server's ``browser.post_connect_cmd``: the check never opens it by hand, since that would hide the very
setting it checks) with the style applied and no frame showing the style's text, the first question draws the
neighbourhood the examples pick (no more nodes than the database returns, no pack hub), and placeholders are
drawn apart from real entities and captioned by their whole id. The page's console goes to ``browser-console.log``
beside the screenshots.

    .venv/bin/python -m scripts.check_browser --out .graphrag/screenshots
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from graphrag.config import Settings
from graphrag.guide.content import EXAMPLES, PANEL_TIP, QUESTIONS, title_and_text
from graphrag.neo4j_local import probe
from graphrag.stores.cypher import query
from graphrag.stores.graph import GraphStore
from scripts.headless import chromium

WAIT_S = 60  # the longest any one step may take
CLICK_TRIES = 3
TOOK_S = 5  # a click that Browser received shows it within this
MISSING_STROKE = "#d0342c"  # graphrag/guide/style.grass: node.Missing border-color
PACK_FILL = "#2b2d42"  # and node.Pack color
CONNECT = (By.CSS_SELECTOR, "button[data-testid='connect']")
BLOCKS = (By.CSS_SELECTOR, "pre.runnable")
RUN = (By.CSS_SELECTOR, "[data-testid='editor-Run']")
STYLE_TEXT = "text-color-internal"  # in the frame that shows the style as text, which post_connect_cmd clears
PANEL = "the node properties display"  # the Overview panel's toggle: "Collapse ..." while open, "Expand ..." closed
# Where an element is, or null while anything on the page is still moving (endless spinners aside): Browser slides
# each new frame in, and opens its guide drawer, with short CSS animations.
BOX_JS = """
const box = arguments[0].getBoundingClientRect();
const moving = document.getAnimations().some(
  a => a.playState === 'running' && isFinite(a.effect.getComputedTiming().endTime));
return moving ? null : [box.x, box.y, box.width, box.height];
"""
EDITOR_JS = "const e = document.querySelector('[data-testid=\"activeEditor\"]'); return e ? e.innerText : '';"
# Every node Browser draws: its caption, fill, outline and place.
NODES_JS = """
return Array.from(document.querySelectorAll('svg g.node')).map(g => {
  const ring = g.querySelector('circle.b-outline') || g.querySelector('circle');
  const box = g.getBoundingClientRect();
  return {caption: g.textContent.trim(), fill: (ring && ring.getAttribute('fill') || '').toLowerCase(),
          stroke: (ring && ring.getAttribute('stroke') || '').toLowerCase(),
          at: [Math.round(box.x), Math.round(box.y)]};
});
"""

# The first result's nodes that its picture does not show: outside the graph's own area, or with something else
# (the Overview panel) over their centre.
HIDDEN_JS = """
const svg = document.querySelector('svg.neod3viz');
const frame = svg.getBoundingClientRect();
return Array.from(svg.querySelectorAll('g.node')).filter(g => {
  const box = g.getBoundingClientRect();
  const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return box.left < frame.left || box.right > frame.right || box.top < frame.top || box.bottom > frame.bottom
    || !top || !svg.contains(top);
}).map(g => g.textContent.trim());
"""

Find = Callable[[Any], Any]


def body_text(driver: Any) -> str:
    return str(driver.find_element(By.TAG_NAME, "body").text)


def settled(measure: Find) -> Find:
    """A wait condition: what ``measure`` returns, once it is what it was one poll earlier (None never is)."""
    last: list[object] = [None]

    def condition(driver: Any) -> Any:
        now = measure(driver)
        same = now is not None and now == last[0]
        last[0] = now
        return now if same else False

    return condition


def standing_still(find: Find) -> Find:
    """A wait condition: the element ``find`` returns, once it sits where it sat one poll earlier."""

    def place(driver: Any) -> tuple[Any, tuple[float, ...]] | None:
        element = find(driver)
        box = driver.execute_script(BOX_JS, element)
        return None if box is None else (element, tuple(box))

    condition = settled(place)
    return lambda driver: (found := condition(driver)) and found[0]


def click(driver: Any, find: Find, took_effect: Find, what: str) -> None:
    """Click as a person does: once the element stands still, and again if Browser shows no sign of the click.

    A click during one of Browser's slide-in animations lands where the element was when the driver measured it,
    so Browser never hears of it: that is why this check once failed 2 runs in 5 (Connect clicked mid-slide)."""
    for attempt in range(1, CLICK_TRIES + 1):
        missing = (NoSuchElementException, StaleElementReferenceException, IndexError)
        wait = WebDriverWait(driver, WAIT_S, ignored_exceptions=missing)
        element = wait.until(standing_still(find), f"{what} never stood still")
        try:
            element.click()
            WebDriverWait(driver, TOOK_S).until(took_effect)
            return
        except (ElementClickInterceptedException, StaleElementReferenceException, TimeoutException) as exc:
            reason = type(exc).__name__
        print(f"warning: click {attempt} on {what} had no effect ({reason}); clicking again", file=sys.stderr)
    raise TimeoutException(f"{CLICK_TRIES} clicks on {what} had no effect")


def wait_for_server(settings: Settings) -> str | None:
    """None once Bolt and Browser's HTTP discovery both answer (within WAIT_S), else what does not."""
    password = settings.neo4j_password.get_secret_value()
    deadline = time.monotonic() + WAIT_S
    while True:
        bolt = probe.bolt_state(settings.neo4j_uri, settings.neo4j_user, password)
        http = probe.discovery(settings.neo4j_http_port)
        if bolt == "ok" and http is not None:
            return None
        if time.monotonic() > deadline:
            return (
                f"Neo4j is not ready after {WAIT_S} s (Bolt {bolt}, HTTP discovery"
                f" {'answers' if http else 'silent'}); start it with `graphrag neo4j start`"
            )
        time.sleep(0.5)


def check(out: Path) -> list[str]:
    """Problems seen (none: all is well); a step that never happens leaves ``browser-failed.png`` behind."""
    settings = Settings()
    out.mkdir(parents=True, exist_ok=True)
    not_ready = wait_for_server(settings)
    if not_ready:
        return [not_ready]
    bolt = urlsplit(settings.neo4j_uri)
    url = f"http://127.0.0.1:{settings.neo4j_http_port}/browser/?dbms=neo4j://{settings.neo4j_user}@{bolt.hostname}:{bolt.port}"
    first_title, _ = title_and_text(query(QUESTIONS[0]))
    with GraphStore.connect(settings) as graph:
        example = graph.read(EXAMPLES)[0]["id"]
        rows = graph.read(QUESTIONS[0], id=example)
    nodes = {step["id"]: "kind" not in step for row in rows for step in row["p"] if isinstance(step, dict)}
    with chromium() as driver:
        try:
            return steps(driver, url, first_title, out, settings.neo4j_password.get_secret_value(), nodes)
        except TimeoutException as exc:
            driver.save_screenshot(str(out / "browser-failed.png"))
            return [f"{exc.msg or 'a step timed out'} (waited up to {WAIT_S} s); see {out / 'browser-failed.png'}"]
        finally:
            (out / "browser-console.log").write_text(console(driver), encoding="utf-8")


def console(driver: Any) -> str:
    """The page's console, one JSON object a line (Browser's own failures show here, not on the page)."""
    return "".join(json.dumps(entry) + "\n" for entry in driver.get_log("browser"))


def run_block(driver: Any, index: int, what: str) -> None:
    """Click a guide block (Browser puts it in the editor), then the editor's run button."""
    block = driver.find_elements(*BLOCKS)[index]
    start = " ".join(block.text.split())[:20]  # its first words, however the guide and the editor wrap them
    in_editor: Find = lambda d: start in " ".join(d.execute_script(EDITOR_JS).replace("\xa0", " ").split())  # noqa: E731
    click(driver, lambda d: d.find_elements(*BLOCKS)[index], in_editor, f"the guide's {what}")
    click(driver, lambda d: d.find_element(*RUN), lambda d: not in_editor(d), "the editor's run button")


def steps(
    driver: Any, url: str, first_title: str, out: Path, password_text: str, expected: dict[str, bool]
) -> list[str]:
    """``expected``: the nodes the first question returns (id -> is a placeholder)."""
    problems: list[str] = []
    wait = WebDriverWait(driver, WAIT_S)
    driver.get(url)
    wait.until(lambda d: d.find_element(*CONNECT), "Browser showed no connect form")
    driver.find_element(By.CSS_SELECTOR, "input[data-testid='password']").send_keys(password_text)
    click(driver, lambda d: d.find_element(*CONNECT), lambda d: not d.find_elements(*CONNECT), "Connect")
    # From here on nothing is clicked until the guide is there: the server's post_connect_cmd must open it.
    wait.until(lambda d: d.find_elements(*BLOCKS), "the guide did not open at connect (browser.post_connect_cmd)")
    wait.until(standing_still(lambda d: d.find_elements(*BLOCKS)[0]), "the guide never stood still")
    driver.save_screenshot(str(out / "browser-guide.png"))
    if first_title not in body_text(driver):
        problems.append(f"the guide that opened at connect is not ours (no {first_title!r} on the page)")
    if STYLE_TEXT in body_text(driver):
        problems.append("a frame shows the style's text: post_connect_cmd should apply it without one")
    run_block(driver, 0, "parameters")  # :param [...] => { cypher/browser_examples }
    wait.until(lambda d: '"other":' in body_text(d), "the parameters were not set")  # the :param frame
    run_block(driver, 1, "first question")
    nodes = wait.until(settled(lambda d: d.execute_script(NODES_JS) or None), "the first question drew no graph")
    driver.save_screenshot(str(out / "browser-first-question.png"))
    placeholders = [n for n in nodes if n["stroke"] == MISSING_STROKE]
    print(
        f"guide opened; first question drew {len(nodes)} nodes, {len(placeholders)} placeholders; screenshots in {out}"
    )
    if len(nodes) != len(expected):
        problems.append(f"the first question drew {len(nodes)} nodes where the database returns {len(expected)}")
    wanted = sorted(i for i, missing in expected.items() if missing)
    if sorted(n["caption"] for n in placeholders) != wanted:
        problems.append(
            f"placeholders drawn apart (outline {MISSING_STROKE}) and captioned {placeholders}, not {wanted}"
        )
    cut = [n["caption"] for n in nodes if n not in placeholders and n["caption"].endswith("…")]
    if cut:
        problems.append(f"captions cut short (style.grass: node.Entity diameter and font-size): {cut}")
    if any(n["fill"] == "#ffffff" and n not in placeholders for n in nodes):
        problems.append("a real entity is drawn white, like a placeholder")
    if any(n["fill"] == PACK_FILL for n in nodes):
        problems.append("the first question drew a pack: its walk ran through the pack hub")
    return problems + whole_picture(driver, out)


def panel_toggle(driver: Any) -> Any:
    """The Overview panel's arrow (its title says whether it collapses or expands the panel)."""
    return next(b for b in driver.find_elements(By.TAG_NAME, "button") if PANEL in (b.get_attribute("title") or ""))


def whole_picture(driver: Any, out: Path) -> list[str]:
    """The guide's tip holds: with the Overview panel closed as it says, the first picture shows every node whole."""
    under = driver.execute_script(HIDDEN_JS)
    closed: Find = lambda d: panel_toggle(d).get_attribute("title").startswith("Expand")  # noqa: E731
    click(driver, panel_toggle, closed, "the Overview panel's arrow")
    # a tuple, so that a settled empty list still ends the wait
    hidden = WebDriverWait(driver, WAIT_S).until(settled(lambda d: (d.execute_script(HIDDEN_JS),)))[0]
    driver.save_screenshot(str(out / "browser-first-question-whole.png"))
    print(f"with the Overview panel open {len(under)} nodes are not shown whole, closed {len(hidden)}")
    problems = [f"the first picture hides {hidden} with its Overview panel closed"] if hidden else []
    if PANEL_TIP not in " ".join(body_text(driver).split()):
        problems.append("the guide does not say how to close the Overview panel")
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
