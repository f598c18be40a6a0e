"""One markdown file -> an ``Entity`` or the problems that reject it (the README's rules for writing packs)."""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from graphrag.names import kind_label, nearest_names, normalise_relation
from ingest.frontmatter import Frontmatter, FrontmatterError, parse
from ingest.labels import reserved_kind_label, reserved_relation
from ingest.limits import (
    MAX_ID_LENGTH,
    MAX_PASSAGES_PER_FILE,
    MAX_RELATIONS_PER_FILE,
    MAX_SUMMARY_CHARS,
    MAX_TITLE_CHARS,
)
from ingest.model import Entity, EntityFrontmatter, Link, PackManifest
from ingest.passages import count
from ingest.report import Problem, shown

# Keys that are the entity itself, under each spelling authors use (first one wins).
_CORE_ALIASES = {"kind": ("kind", "type"), "title": ("title", "name")}
_CORE_KEYS = {"id", "summary", "aliases", "tags", "related"}
# Property names the graph model uses itself; a frontmatter key with one of them is kept as fm_<key>.
_RESERVED_PROPERTIES = {
    "pack",
    "path",
    "body",
    "body_ru",
    "body_cjk",
    "sha256",
    "revision",
    "ingested_at",
    "kind_label",
    "alias_text",
    "text_key",
    "file_stamp",
    "file_problems",
}
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")


@dataclass
class ParsedFile:
    """What one file yields: an entity, or nothing (skipped or rejected), plus problems."""

    path: str
    sha256: str
    entity: Entity | None = None
    skipped: bool = False
    unchanged: bool = False  # stored as it is: not parsed again
    stamp: str | None = None  # what showed the file unchanged, for the next run (packs.file_stamp)
    claimed_id: str | None = None  # the id it defines, when that could be read (a rejected file's too)
    problems: list[Problem] = field(default_factory=list)

    @property
    def rejected(self) -> bool:
        return any(p.rejects_file for p in self.problems)

    def report(
        self, code: str, message: str, line: int | None = None, field: str | None = None, link: bool = False
    ) -> None:
        """A problem by its rule's ``code`` (ingest/rules.py), which gives its severity."""
        self.problems.append(Problem(code=code, path=self.path, line=line, field=field, message=message, link=link))


def parse_file(manifest: PackManifest, rel_path: str, raw: bytes, sha: str) -> ParsedFile:
    out = ParsedFile(path=rel_path, sha256=sha)
    fm = _frontmatter(raw, out)
    if fm is None:
        return out
    data = dict(fm.data)
    front = _core(fm, data, out)
    if front is None:
        return out
    stem = rel_path.removesuffix(".md")
    entity_id = front.id or manifest.id + "/" + re.sub(r"\s+", "-", stem)
    out.claimed_id = entity_id
    kind = front.kind or "entity"
    title = front.title or _first_heading(fm.body) or stem.rsplit("/", 1)[-1]
    summary = front.summary if front.summary is not None else _first_paragraph(fm.body)
    title = _within("title", title, MAX_TITLE_CHARS, fm.key_lines.get("title"), out)
    summary = _within("summary", summary, MAX_SUMMARY_CHARS, fm.key_lines.get("summary"), out)

    label = kind_label(kind)
    _check_bounds(fm, data, entity_id, kind, label, out)
    _synonyms_in_body(fm, front.aliases, out)
    links = _links(manifest, fm, data, out)
    if out.rejected:
        return out
    out.entity = Entity(
        id=entity_id,
        pack=manifest.id,
        kind=kind,
        kind_label=label,
        title=title,
        summary=summary,
        aliases=front.aliases,
        tags=front.tags,
        path=rel_path,
        body=fm.body,
        body_line=fm.body_line,
        sha256=sha,
        properties=_properties(manifest, fm, data, out),
        links=links,
        kind_line=fm.key_lines.get(_spelling("kind", data) or ""),
        id_line=fm.key_lines.get("id"),
    )
    return out


def _frontmatter(raw: bytes, out: ParsedFile) -> Frontmatter | None:
    """The file's frontmatter, or None with the reason in ``out``: not UTF-8, bad YAML, or none at all
    (skipped; an empty file says so)."""
    raw = raw.removeprefix(codecs.BOM_UTF8)
    try:
        text = _lines(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        _not_utf8(raw, exc, out)
        return None
    try:
        fm = parse(text)
    except FrontmatterError as exc:
        out.report(exc.code, str(exc), exc.line, exc.field)
        return None
    if fm is None:
        out.skipped = True
        if not text.strip():
            out.report("F003", "the file is empty: skipped (an entity needs frontmatter between --- lines)", 1)
        return None
    for key, line in fm.duplicates:
        out.report("Y006", f"duplicate key {shown(key)}: the last value is used", line, key)
    return fm


def _core(fm: Frontmatter, data: dict[str, Any], out: ParsedFile) -> EntityFrontmatter | None:
    """The keys every entity has (id, kind, title, ...: any of their spellings), validated; None, with an
    error per wrong key, when they do not validate."""
    core: dict[str, Any] = {k: data[k] for k in _CORE_KEYS - {"related"} if k in data}
    for name, spellings in _CORE_ALIASES.items():
        present = [s for s in spellings if s in data]
        if present:
            core[name] = data[present[0]]
    if isinstance(core.get("id"), str):
        out.claimed_id = core["id"].strip()
    try:
        return EntityFrontmatter.model_validate(core)
    except ValidationError as exc:
        for err in exc.errors():
            spelled = _spelling(str(err["loc"][0]) if err["loc"] else None, data)
            message = err["msg"].removeprefix("Value error, ")
            if err["type"] in ("string_type", "list_type"):
                expected = "text" if err["type"] == "string_type" else "a list of text"
                message = f"must be {expected}, found {shown(err['input'])}"
            out.report("E001", message, fm.key_lines.get(spelled or "", None), spelled)
        return None


def _properties(manifest: PackManifest, fm: Frontmatter, data: dict[str, Any], out: ParsedFile) -> dict[str, Any]:
    """Every other key, a node property (one named as a graph property the service sets is renamed)."""
    used = set(_CORE_KEYS) | {s for spellings in _CORE_ALIASES.values() for s in spellings[:1]}
    used |= {spellings[1] for name, spellings in _CORE_ALIASES.items() if spellings[0] not in data}
    used |= {k for k in data if _top_level_relation(manifest, k) is not None}
    properties: dict[str, Any] = {}
    for key, value in data.items():
        if key in used or value is None:
            continue
        name = f"fm_{key}" if key in _RESERVED_PROPERTIES else key
        if name != key:
            message = f"key {shown(key)} is a graph property name; kept as {shown(name)}"
            out.report("E008", message, fm.key_lines.get(key), key)
        properties[name] = _property_value(value)
    return properties


def _within(name: str, text: str, most: int, line: int | None, out: ParsedFile) -> str:
    """``text`` cut at ``most`` characters, with a warning when it was longer."""
    if len(text) <= most:
        return text
    out.report("E006", f"{name} is {len(text):,} characters long, more than {most:,}: cut there", line, name)
    return text[:most]


# A body line that lists other names: ``Synonyms: a, b``, ``**Also known as:** a``, ``Синонимы: а, б``.
_SYNONYM_LINE = re.compile(
    r"^\W*(?:synonyms?|also known as|aliases|other names|a\.?k\.?a\.?|синонимы|также известн\w*)\W*:\W*(.+)$",
    re.IGNORECASE,
)


def _synonyms_in_body(fm: Frontmatter, aliases: list[str], out: ParsedFile) -> None:
    """Names written in the body are text like any other; as ``aliases`` they are names: a question quoting
    one finds this entity first, and links may use them."""
    known = {a.casefold() for a in aliases}
    for number, line in enumerate(fm.body.splitlines()):
        found = _SYNONYM_LINE.match(line)
        if found is None:
            continue
        names = [n.strip(" .*_`'\"") for n in re.split(r"[,;]", found.group(1))]
        missing = [n for n in names if n and n.casefold() not in known]
        if missing:
            listed = ", ".join(shown(n) for n in missing[:5]) + (", ..." if len(missing) > 5 else "")
            message = f"the body lists other names ({listed}); list them under `aliases:`, where a question finds them"
            out.report("E009", message, fm.body_line + number, "aliases")


def _check_bounds(
    fm: Frontmatter, data: dict[str, Any], entity_id: str, kind: str, label: str, out: ParsedFile
) -> None:
    """Errors for an entity the stores must not take: a label of the service's own, an id too long to
    index, more passages than one transaction should hold."""
    if reserved_kind_label(label):
        spelled = _spelling("kind", data)
        message = f"kind {shown(kind)} would be the label :{label}, which the service uses for its own nodes"
        out.report("E003", message, fm.key_lines.get(spelled or ""), spelled)
    if len(entity_id) > MAX_ID_LENGTH:
        message = f"id is {len(entity_id):,} characters long, more than the {MAX_ID_LENGTH} allowed"
        out.report("E004", message, fm.key_lines.get("id"), "id")
    # A passage holds at least one line: only a body of more lines than the limit is worth counting.
    if fm.body.count("\n") >= MAX_PASSAGES_PER_FILE and (passages := count(fm.body)) > MAX_PASSAGES_PER_FILE:
        message = f"the body makes {passages:,} passages (sections and windows), more than {MAX_PASSAGES_PER_FILE:,}"
        out.report("E005", message, fm.body_line)


def _spelling(key: str | None, data: dict[str, Any]) -> str | None:
    for spelled in _CORE_ALIASES.get(key or "", ()):
        if spelled in data:
            return spelled
    return key


def _top_level_relation(manifest: PackManifest, key: str) -> str | None:
    """A top-level key is a link only when the pack's vocabulary declares it (``pack.yaml``'s ``relations``)."""
    if key in _CORE_KEYS or not manifest.relations:
        return None
    name = normalise_relation(key)
    return name if name is not None and manifest.declares(name) else None


def _links(manifest: PackManifest, fm: Frontmatter, data: dict[str, Any], out: ParsedFile) -> list[Link]:
    """Every typed link of the file, in all the shapes the README's pack rules accept; bad ones become warnings."""
    found: list[tuple[str, Any, int | None, str]] = []  # (raw relation, value, line, field)
    related = data.get("related")
    related_line = fm.key_lines.get("related")
    if isinstance(related, dict):
        for raw, value in related.items():
            found.append((raw, value, fm.nested_key_lines.get(("related", raw), related_line), f"related.{raw}"))
    elif isinstance(related, list):
        for item in related:
            if isinstance(item, dict) and "relation" in item:
                found.append((str(item["relation"]), item, related_line, "related"))
            else:
                found.append(("relates_to", item, related_line, "related"))
    elif related is not None:
        found.append(("relates_to", related, related_line, "related"))
    for key, value in data.items():
        if _top_level_relation(manifest, key) is not None:
            found.append((key, value, fm.key_lines.get(key), key))

    links: list[Link] = []
    seen: set[tuple[str, str, bool]] = set()
    relations: set[str] = set()
    for raw, value, line, field_name in found:
        relation = normalise_relation(str(raw))
        if relation is None:
            out.report(
                "L003", f"relation name {shown(raw)} is not [a-z][a-z0-9_]*; its links are skipped", line, field_name
            )
            continue
        if reserved := reserved_relation(relation):
            out.report("L004", reserved + "; its links are skipped", line, field_name)
            continue
        if relation != raw:
            out.report("L005", f"relation {shown(raw)} read as {shown(relation)}", line, field_name)
        if manifest.relations and not manifest.declares(relation):
            # a pack that declares its relations means them all: a misspelt one would be a type of its own
            out.report("L001", _undeclared(manifest, relation), line, field_name, link=True)
            continue
        canonical, reverse = manifest.canonical(relation)
        relations.add(canonical)
        if len(relations) > MAX_RELATIONS_PER_FILE:
            message = f"more than {MAX_RELATIONS_PER_FILE} distinct relations in one file"
            out.report("L002", message, line, field_name)
            return []
        for target, weight, note in _targets(value, line, field_name, out):
            identity = (canonical, target, reverse)
            if identity in seen:
                continue
            seen.add(identity)
            links.append(Link(relation=canonical, target=target, reverse=reverse, weight=weight, note=note, line=line))
    return links


def _undeclared(manifest: PackManifest, relation: str) -> str:
    """The warning for a relation pack.yaml does not declare, with the declared name nearest to it."""
    nearest = nearest_names(relation, [(name, name) for name in manifest.declared_names()], limit=1, typos_only=True)
    hint = f"; did you mean {shown(nearest[0])}?" if nearest else ""
    return f"relation {shown(relation)} is not declared in pack.yaml, so its links are not stored (the file is){hint}"


def _targets(
    value: Any, line: int | None, field_name: str, file: ParsedFile
) -> list[tuple[str, float | None, str | None]]:
    items = value if isinstance(value, list) else [value]
    out: list[tuple[str, float | None, str | None]] = []
    for item in items:
        if item is None:
            continue
        weight: Any = None
        note: Any = None
        if isinstance(item, dict):
            target, weight, note = item.get("id", item.get("target")), item.get("weight"), item.get("note")
            if not isinstance(target, str | int | float) or isinstance(target, bool) or not str(target).strip():
                file.report("L006", f"link object without an 'id' or 'target': {shown(item)}", line, field_name)
                continue
            if weight is not None and (isinstance(weight, bool) or not isinstance(weight, int | float)):
                message = f"weight {shown(weight)} is not a number; the link keeps no weight"
                file.report("L007", message, line, field_name)
                weight = None
        elif isinstance(item, str | int | float) and not isinstance(item, bool):
            target = item
        else:
            file.report("L006", f"link target {shown(item)} is neither an id nor a link object", line, field_name)
            continue
        text = str(target).strip()
        if len(text) > MAX_ID_LENGTH:
            message = (
                f"link target is {len(text):,} characters long, longer than an id may be ({MAX_ID_LENGTH}); skipped"
            )
            file.report("L006", message, line, field_name)
        elif text:
            out.append((text, None if weight is None else float(weight), None if note is None else str(note)))
    return out


def _property_value(value: Any) -> Any:
    """Scalars and lists of one scalar type stay as they are; anything else becomes JSON text."""
    if isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str | int | float | bool) for v in value):
        kinds = {type(v) for v in value}
        return value if len(kinds) == 1 else [str(v) for v in value]
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _lines(text: str) -> str:
    """Every line break as ``\\n`` (Windows ``\\r\\n``, old Mac ``\\r``), so lines count as an editor counts them."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _not_utf8(raw: bytes, exc: UnicodeDecodeError, out: ParsedFile) -> None:
    """Name the line of the first byte that is not UTF-8 (counting every kind of line break)."""
    before = raw[: exc.start]
    line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
    out.report("F002", f"not UTF-8 text: byte 0x{raw[exc.start]:02x} ({exc.reason})", line)


def _first_heading(body: str) -> str | None:
    for line in body.split("\n"):
        match = _HEADING.match(line)
        if match and match.group(1):
            return match.group(1)
    return None


def _first_paragraph(body: str) -> str:
    paragraph: list[str] = []
    for line in body.split("\n"):
        stripped = line.strip()
        if not stripped:
            if paragraph:
                break
            continue
        if _HEADING.match(line) or stripped.startswith(("<", "|", "```", "---")):
            if paragraph:
                break
            continue
        paragraph.append(stripped.lstrip("> ").strip())
    return " ".join(p for p in paragraph if p)
