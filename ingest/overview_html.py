"""A pack overview as one self-contained HTML file: inline style, the schema picture as inline SVG, no script and
no reference outside the file, so it opens offline and can be attached to a review."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from html import escape

from graphrag.diagrams import drawn_arrows, schema_svg
from ingest.overview import EntityRow, PackOverview
from ingest.report import Problem

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:2rem auto;max-width:1100px;
 color:#1f2933;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d9e2ec}
.muted{color:#627d98}.figures{display:flex;gap:1rem;flex-wrap:wrap;margin:1rem 0}
.figure{background:#f0f4f8;border-radius:6px;padding:.6rem 1rem;min-width:7rem}
.figure b{display:block;font-size:1.4rem}.bad b{color:#c62828}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.25rem .6rem;
 border-bottom:1px solid #e4e7eb;vertical-align:top}th{background:#f5f7fa}td.n{text-align:right}
code{font-size:.92em;background:#f5f7fa;padding:0 .2em;border-radius:3px}
.schema{border:1px solid #e4e7eb;border-radius:6px;padding:.5rem}.schema svg{max-width:100%;height:auto}
.ok{color:#2e7d32}
"""


def _table(headings: Sequence[str], rows: Iterable[Sequence[object]], numeric: Sequence[int] = ()) -> str:
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{value:,}</td>' if i in numeric else f"<td>{escape(str(value))}</td>"
            for i, value in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    if not body:
        return '<p class="ok">None.</p>'
    return "<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in headings) + f"</tr>{body}</table>"


def _where(problem: Problem) -> str:
    return problem.path if problem.line is None else f"{problem.path}:{problem.line}"


def _problems(problems: Sequence[Problem]) -> str:
    return _table(
        ["file:line", "rule", "field", "message"], [(_where(p), p.code, p.field or "", p.message) for p in problems]
    )


def _entities(rows: Sequence[EntityRow], with_links: bool) -> str:
    if with_links:
        return _table(
            ["links", "id", "title", "kind", "file"], [(r.links, r.id, r.title, r.kind, r.path) for r in rows], [0]
        )
    return _table(["id", "title", "kind", "file"], [(r.id, r.title, r.kind, r.path) for r in rows])


def _groups(view: PackOverview) -> str:
    """The dangling links by target prefix, and the skipped files that name their targets."""
    notes = "".join(
        f'<p class="muted">{escape(", ".join(g.mentioned_in))} (skipped: no frontmatter) '
        f"name{'s' if len(g.mentioned_in) == 1 else ''} missing targets <code>{escape(g.prefix)}…</code>, but a "
        "file without frontmatter defines no entity: give each target a file of its own with frontmatter, or "
        "link to an entity that exists.</p>"
        for g in view.dangling_groups
        if g.mentioned_in
    )
    rows = [
        (g.prefix + "…", g.links, g.targets, ", ".join(g.declared_in[:3]) + (" …" if len(g.declared_in) > 3 else ""))
        for g in view.dangling_groups
    ]
    return notes + _table(["target prefix", "links", "targets", "declared in"], rows, [1, 2])


def _figure(label: str, value: int, bad: bool = False) -> str:
    return f'<div class="figure{" bad" if bad and value else ""}"><b>{value:,}</b>{escape(label)}</div>'


def _schema(view: PackOverview) -> str:
    """The picture of kinds and relations, and what it leaves out: less used arrows, kinds with no link."""
    boxes, arrows = view.diagram()
    drawn = {end for a in drawn_arrows(arrows) for end in (a.source, a.target)}
    linked = {end for a in arrows for end in (a.source, a.target)}
    svg, left_out = schema_svg({k: n for k, n in boxes.items() if k in drawn}, arrows)
    omitted = f'<p class="muted">{left_out:,} less used arrows are not drawn; the tables list every link.</p>'
    apart = "".join(
        f'<p class="muted">{label}: {escape(", ".join(f"{kind} ({n:,})" for kind, n in kinds))}.</p>'
        for label, kinds in (
            ("Kinds with no links", [(k, n) for k, n in sorted(boxes.items()) if k not in linked]),
            (
                "Kinds linked only by less used arrows",
                [(k, n) for k, n in sorted(boxes.items()) if k in linked - drawn],
            ),
        )
        if kinds
    )
    return f'<div class="schema">{svg}</div>' + (omitted if left_out else "") + apart


def render_html(view: PackOverview) -> str:
    names = ", ".join(p.pack for p in view.packs)
    figures = "".join(
        [
            _figure("entities", view.entities),
            _figure("links", view.links),
            _figure("kinds", len(view.kinds)),
            _figure("relation types", len(view.relations)),
            _figure("dangling links", len(view.dangling), bad=True),
            _figure("orphans", len(view.orphans), bad=True),
            _figure("rejected files", len({p.path for p in view.rejected}), bad=True),
            _figure("links left out", len(view.links_left_out), bad=True),
            _figure("duplicate ids", len(view.duplicate_ids), bad=True),
        ]
    )
    sections = [
        ("Schema: kinds and the relations between them", _schema(view)),
        ("Rejected files", _problems(view.rejected)),
        ("Links left out (a relation the pack does not declare)", _problems(view.links_left_out)),
        ("Duplicate ids", _problems(view.duplicate_ids)),
        (
            "Entities sharing a title (a link by that title resolves to none of them)",
            _table(["title", "ids"], [(d.title, ", ".join(d.ids)) for d in view.duplicate_titles]),
        ),
        ("Dangling links by target (targets no file defines)", _groups(view)),
        (
            "Dangling links, one by one",
            _table(
                ["file", "source", "relation", "missing target"],
                [(d.declared_in, d.source, d.relation, d.target) for d in view.dangling],
            ),
        ),
        ("Orphans (no typed link in or out)", _entities(view.orphans, with_links=False)),
        ("Most connected entities", _entities(view.most_connected, with_links=True)),
        ("Entities per kind", _table(["kind", "entities"], view.kinds.items(), [1])),
        ("Links per relation type", _table(["relation", "links"], view.relations.items(), [1])),
        ("Warnings (a value or a link skipped)", _problems(view.warnings)),
    ]
    packs = _table(
        ["pack", "folder", "files", "entities"], [(p.pack, p.root, p.files, p.entities) for p in view.packs], [2, 3]
    )
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Pack report: {escape(names)}</title>'
        f"<style>{STYLE}</style></head><body>\n<h1>Pack report: {escape(names)}</h1>"
        f'<p class="muted">Made by <code>graphrag report</code> on {stamp} from the files alone.</p>'
        f'{packs}<div class="figures">{figures}</div>\n'
        + "\n".join(f"<h2>{escape(title)}</h2>\n{body}" for title, body in sections)
        + "\n</body></html>\n"
    )
