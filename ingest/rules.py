"""Every rule an author's pack is checked against, by a stable code (as a linter names its rules).

Each problem of ``check`` and ``ingest`` carries its rule's code; ``graphrag check --select/--ignore`` and
pack.yaml's ``ignore`` name codes, or a code's leading letters for a whole family (``L`` is every link
rule). An error rule rejects the file (or, for a link rule, the link), so only warnings can be silenced in
pack.yaml; ``check --ignore`` only hides what it shows. docs/rules.md is this table, generated.

Families: ``F`` the file, ``Y`` its YAML frontmatter, ``E`` the entity's fields, ``L`` its links.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from graphrag.nearest import nearest

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Rule:
    code: str
    severity: Severity
    name: str
    doc: str


RULES: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        Rule("F001", "error", "unreadable-file", "The file cannot be read: too large, outside the pack, or refused."),
        Rule("F002", "error", "not-utf8", "The file is not UTF-8 text; the first byte that is not is named."),
        Rule("F003", "warning", "empty-file", "The file is empty: skipped (an entity needs frontmatter)."),
        Rule("F004", "warning", "nested-pack", "A folder with a pack.yaml of its own is its own pack: skipped."),
        Rule("F005", "warning", "frontmatter-removed", "A file no longer opens with frontmatter: its entity goes."),
        Rule("Y001", "error", "unclosed-frontmatter", "The frontmatter block opened with --- is never closed."),
        Rule("Y002", "error", "invalid-yaml", "The frontmatter is not YAML (a tab, a colon in a value, ...)."),
        Rule("Y003", "error", "not-a-mapping", "The frontmatter is not a mapping of keys."),
        Rule("Y004", "error", "frontmatter-too-large", "Past a bound: block size, nesting depth, values, aliases."),
        Rule("Y005", "error", "unsupported-value", "A set, binary data, a key that is not text, a wrong typed tag."),
        Rule("Y006", "warning", "duplicate-key", "A key is written twice: the last value is used."),
        Rule("E001", "error", "invalid-field", "A core field (id, kind, title, summary, aliases, tags) is malformed."),
        Rule("E002", "error", "duplicate-id", "Several files define one id: none replaces the stored version."),
        Rule("E003", "error", "reserved-kind", "A kind would be a label the service uses for its own nodes."),
        Rule("E004", "error", "id-too-long", "An id is longer than an index takes."),
        Rule("E005", "error", "too-many-passages", "The body makes more passages than one file may."),
        Rule("E006", "warning", "text-too-long", "A title or summary is longer than its limit: cut there."),
        Rule("E007", "warning", "kind-spelling", "A kind is written another way than most of the pack writes it."),
        Rule("E008", "warning", "reserved-property", "A key is a graph property's name: kept as fm_<key>."),
        Rule("E009", "warning", "names-in-body", "The body lists other names that are not under aliases."),
        Rule("L001", "error", "undeclared-relation", "A relation pack.yaml does not declare: its links are left out."),
        Rule("L002", "error", "too-many-relations", "More distinct relations in one file than types may be made."),
        Rule("L003", "warning", "invalid-relation-name", "A relation name is not [a-z][a-z0-9_]*: its links go."),
        Rule("L004", "warning", "reserved-relation", "A relation name the service uses itself: its links go."),
        Rule("L005", "warning", "relation-respelled", "A relation name is read in its normal spelling."),
        Rule("L006", "warning", "invalid-link", "A link item that is not an id or a link object with one: skipped."),
        Rule("L007", "warning", "invalid-weight", "A link's weight is not a number: the link keeps none."),
        Rule("L008", "warning", "unknown-target", "A link target that is a file path or no id: skipped."),
        Rule("L009", "warning", "dangling-link", "A link to an id no file defines: stored to a placeholder."),
    )
}


def matches(code: str, selectors: Iterable[str]) -> bool:
    """Whether a selector names ``code``: the code itself, or its leading letters (``L``, ``E00``)."""
    return any(code.startswith(selector) for selector in selectors)


def unknown_selectors(selectors: Iterable[str]) -> list[str]:
    """Each selector naming no rule, with the codes nearest to it: ``'L01' (nearest: L001, ...)``."""
    out = []
    for selector in selectors:
        if not any(code.startswith(selector) for code in RULES):
            out.append(f"{selector!r} (nearest: {', '.join(nearest(selector, RULES, limit=3))})")
    return out


def markdown_table() -> str:
    """docs/rules.md's table."""
    rows = [f"| `{r.code}` | {r.name} | {r.severity} | {r.doc} |" for r in RULES.values()]
    return "\n".join(["| code | name | severity | what it says |", "|---|---|---|---|", *rows])
