"""The guide and the style as Browser fetches them, made from ``cypher/browser_*.cypher`` (one source of truth:
the files are what the tests run against a real Neo4j, and what the guide shows).

A question's file opens with ``// Title: what it answers`` and names its parameters; the guide's first slide
sets every parameter from ``browser_examples`` (an entity of whatever packs are loaded), so each question runs
when clicked.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from graphrag.stores.cypher import CypherFile, query

# The guide's questions, in the order its slides show them; the first is what a person tries first.
QUESTIONS = (
    "browser_neighbourhood",
    "browser_pack_examples",
    "browser_paths",
    "browser_dangling",
    "browser_orphans",
    "browser_relation_usage",
    "browser_memory",
)
EXAMPLES = "browser_examples"
GUIDE_FILE = "guide.html"
STYLE_FILE = "style.grass"
STYLE = Path(__file__).with_name(STYLE_FILE)
# Browser opens a result's Overview panel over the right of the picture, and no setting closes it; once closed,
# Browser keeps it closed for the results that follow (checked in Chromium by scripts/check_browser.py).
PANEL_TIP = (
    "The Overview panel on the right of a result covers part of the picture: close it with the arrow at its top"
    " right, and Browser keeps it closed for the next results."
)


def title_and_text(cypher: CypherFile) -> tuple[str, str]:
    """``An entity's neighbourhood`` and the rest of the header up to its ``Parameters:`` line."""
    about = cypher.header.split("Parameters:", 1)[0]
    title, _, text = " ".join(about.split()).partition(": ")
    return title, text[:1].upper() + text[1:]


def parameters_command() -> str:
    """``:param [{id, other}] => { ... }``: Browser runs the examples query and sets each column as a parameter.
    On one line (the query's lines joined), so the first slide shows the first question without scrolling."""
    examples = " ".join(line.strip() for line in query(EXAMPLES).body.splitlines() if line.strip())
    columns = sorted({name for name in QUESTIONS for name in query(name).parameters})
    return f":param [{{{', '.join(columns)}}}] => {{ {examples} }}"


def _prose(text: str) -> str:
    """Header text as HTML: its `code` spans as code (a backtick shown as it is reads as a stray mark)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def _runnable(text: str) -> str:
    return f'<pre mode="cypher" class="runnable">{html.escape(text)}</pre>'


def _slide(heading: str, *parts: str) -> str:
    return "<slide>\n<h3>" + html.escape(heading) + "</h3>\n" + "\n".join(parts) + "\n</slide>"


def guide_html() -> str:
    """The guide: a first slide that sets the parameters and asks the first question, then one slide each."""
    slides = []
    for number, name in enumerate(QUESTIONS):
        cypher = query(name)
        title, text = title_and_text(cypher)
        parts = [f"<p>{_prose(text)}</p>"]
        if number == 0:
            _, examples_text = title_and_text(query(EXAMPLES))
            parts[:0] = [
                "<p>Click a query to put it in the editor, then run it. First set the parameters the questions use"
                " (or your own, e.g. <code>:param id =&gt; 'SOME.ID'</code>):</p>",
                _runnable(parameters_command()),
                f"<p><small>{_prose(examples_text)}</small></p>",
            ]
        parts.append(_runnable(cypher.body))
        if number == 0:
            parts.append(f"<p><small>{PANEL_TIP}</small></p>")
        parts.append(f"<p><small>From <code>cypher/{html.escape(name)}.cypher</code>.</small></p>")
        slides.append(_slide(title, *parts))
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>pack-graphrag: questions</title></head><body>\n'
        + "\n".join(slides)
        + "\n</body></html>\n"
    )


def style_grass() -> str:
    return STYLE.read_text(encoding="utf-8")


def style_json() -> str:
    """The style as the JSON Browser's ``:style`` also reads (selector -> property -> value): it holds no ``;``,
    which would split the post-connect command, so it can be given inline."""
    rules = {
        selector.strip(): dict(
            (key.strip(), value.strip().strip('"'))
            for key, _, value in (line.partition(":") for line in body.split(";"))
            if value.strip()
        )
        # selector { key: value; ... }, where a caption's "{property}" is a brace pair inside the rule
        for selector, body in re.findall(r"([^{}]+)\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}", style_grass())
    }
    return json.dumps(rules, separators=(",", ":"))


def post_connect_command(base_url: str) -> str:
    """``browser.post_connect_cmd``: apply the style, clear the frame Browser shows it in (the whole style as text,
    a screen high), then open the guide in Browser's sidebar. Given inline, the style is applied before ``clear``
    runs; fetched from a URL, its frame would come after."""
    return f"style {style_json()}; clear; guide {base_url}/{GUIDE_FILE}"
