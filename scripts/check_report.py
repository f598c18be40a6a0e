"""Check `graphrag report --html` as a reviewer opens it: offline, in a real headless Chromium. The page must
load with no request leaving the file, its schema SVG must render with a size, and every rejected file must be
named on it, and the schema picture must fit the page's width (no sideways scrolling). Saves a screenshot per pack,
and one of its schema picture alone.

    .venv/bin/python -m scripts.check_report examples/space-missions --out .graphrag/screenshots
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from selenium.webdriver.common.by import By

from ingest.overview import overview
from ingest.overview_html import render_html
from scripts.headless import chromium

# Every resource the page loaded, and the rendered size of the schema picture.
PAGE_JS = """
const svg = document.querySelector('.schema svg');
const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
const frame = document.querySelector('.schema');
return {resources: performance.getEntriesByType('resource').map(e => e.name),
        svg: [box.width, box.height], text: document.body.innerText,
        scrolls: frame ? frame.scrollWidth > frame.clientWidth : false,
        height: document.documentElement.scrollHeight};
"""


def check(pack: Path, out: Path) -> list[str]:
    view = overview([pack])
    page = out / f"report-{pack.resolve().name}.html"
    page.write_text(render_html(view), encoding="utf-8")
    with chromium(width=1280, height=900) as driver:
        driver.get(page.resolve().as_uri())
        seen = driver.execute_script(PAGE_JS)
        driver.set_window_size(1280, min(int(seen["height"]) + 40, 6000))
        driver.save_screenshot(str(out / f"report-{pack.resolve().name}.png"))
        driver.find_element(By.CSS_SELECTOR, ".schema").screenshot(
            str(out / f"report-{pack.resolve().name}-schema.png")
        )
    problems = [f"{page.name} loaded {url}" for url in seen["resources"]]
    if min(seen["svg"]) < 50:
        problems.append(f"{page.name}: the schema SVG did not render (size {seen['svg']})")
    if seen["scrolls"]:
        problems.append(f"{page.name}: the schema picture is wider than the page (it scrolls sideways)")
    problems += [f"{page.name} does not name {p.path}" for p in view.rejected if p.path not in seen["text"]]
    rejected = sorted({p.path for p in view.rejected})
    print(f"{page.name}: schema {seen['svg'][0]:.0f}x{seen['svg'][1]:.0f} px, rejected files named: {rejected}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packs", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=Path(".graphrag/screenshots"), help="Folder for the pages.")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    problems = [problem for pack in args.packs for problem in check(pack, args.out)]
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
