"""A pack file never crashes a run: every hostile or broken file becomes `path:line: error[CODE] [field]`.

Parse-level (no store), so the fuzz tests are fast; ``test_hostile_ingest.py`` runs the same files
through the real ingest.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import get_args

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphrag.errors import ECHO_CHARS
from graphrag.memory.model import Relation
from graphrag.stores.cypher import parse_cypher
from ingest.labels import RECORD_LINK_TYPES, labels_in, service_labels, service_relationship_types
from ingest.limits import (
    MAX_FRONTMATTER_CHARS,
    MAX_ID_LENGTH,
    MAX_INTEGER,
    MAX_PASSAGES_PER_FILE,
    MAX_RELATIONS_PER_FILE,
    MAX_YAML_DEPTH,
    MAX_YAML_VALUES,
    MIN_INTEGER,
)
from ingest.model import PackManifest
from ingest.packs import PackError, load_manifest
from ingest.parse import ParsedFile, parse_file

pytestmark = pytest.mark.fast

PACK = PackManifest(id="demo")
PATH = "notes/a.md"


def parse(raw: bytes | str, path: str = PATH) -> ParsedFile:
    data = raw.encode("utf-8") if isinstance(raw, str) else raw
    return parse_file(PACK, path, data, hashlib.sha256(data).hexdigest())


def rendered(parsed: ParsedFile) -> list[str]:
    return [p.render() for p in parsed.problems]


def alias_bomb(levels: int, fanout: int) -> str:
    """``a0: &a0 [x, x, ...]``, ``a1: &a1 [*a0, *a0, ...]``, ...: fanout ** levels values once expanded."""
    lines = ["a0: &a0 [" + ", ".join(["x"] * fanout) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * fanout) + "]" for i in range(1, levels)]
    return "\n".join(lines)


def snake(label: str) -> str:
    """``MemoryRecord`` -> ``memory_record``: how an author would spell a kind that becomes that label."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", label).lower()


# Where a hostile file must lie: a path long enough makes the default id (pack id + path) too long.
HOSTILE_PATHS = {"long_default_id": "/".join(["n" * 200, "n" * 200, "n" * 120]) + ".md"}
# One file per class of hostile input, and the first problem it must give (file line, field).
HOSTILE: dict[str, tuple[str | bytes, str]] = {
    "binary": (
        "---\nid: H.1\nblob: !!binary aGVsbG8=\n---\n",
        "3: error[Y005] [blob]: binary data (!!binary) is not allowed",
    ),
    "binary_title": ("---\nid: H.2\ntitle: !!binary aGVsbG8=\n---\n", "3: error[Y005] [title]: binary data (!!binary)"),
    "set": ("---\nid: H.3\nflags: !!set {a, b}\n---\n", "3: error[Y005] [flags]: a set (!!set) is not allowed"),
    "big_int": (
        "---\nid: H.4\nn: [1, 9223372036854775808]\n---\n",
        "3: error[Y005] [n]: '9223372036854775808' is not an integer within 64 bits",
    ),
    "huge_int": ("---\nid: H.5\nn: " + "9" * 5000 + "\n---\n", "3: error[Y005] [n]: '99999"),
    "nan": (
        "---\nid: H.6\nrelated:\n  uses: [{id: X, weight: .nan}]\n---\n",
        "4: error[Y005] [related.uses.weight]: '.nan' is not a finite number",
    ),
    "bad_tag": ("---\nid: H.7\nready: !!bool maybe\n---\n", "3: error[Y005] [ready]: 'maybe' is not true or false"),
    "empty_key": (
        '---\nid: H.8\ntrust:\n  "": 1\n---\n',
        "4: error[Y005] [trust]: key '' is empty or holds a NUL character",
    ),
    "list_key": ("---\nid: H.9\n? [a, b]\n: 1\n---\n", "3: error[Y005]: a key must be text"),
    "nul_key": ('---\nid: H.10\n"a\\0b": 1\n---\n', "3: error[Y005]: key 'a\\x00b' is empty or holds a NUL character"),
    "recursive": (
        "---\nid: H.11\nloop: &a [1, [2, *a]]\n---\n",
        "3: error[Y004] [loop]: recursive alias: a value contains itself",
    ),
    "deep": (
        f"---\nid: H.12\ndeep: {'[' * 40}{']' * 40}\n---\n",
        f"3: error[Y004] [deep]: values nested more than {MAX_YAML_DEPTH} levels deep",
    ),
    "bomb": (
        f"---\nid: H.13\n{alias_bomb(9, 9)}\n---\n",
        f"8: error[Y004] [a5]: more than {MAX_YAML_VALUES:,} values once aliases are expanded",
    ),
    "long_id": (
        f"---\nid: {'L' * (MAX_ID_LENGTH + 1)}\n---\n",
        f"2: error[E004] [id]: id is {MAX_ID_LENGTH + 1} characters long",
    ),
    "long_default_id": (
        "---\ntitle: no id\n---\n",
        f" error[E004] [id]: id is {len('demo/' + HOSTILE_PATHS['long_default_id']) - len('.md')} characters long",
    ),
    "relations": (
        "---\nid: H.14\nrelated:\n" + "".join(f"  rel_{i}: X\n" for i in range(MAX_RELATIONS_PER_FILE + 1)) + "---\n",
        f"{4 + MAX_RELATIONS_PER_FILE}: error[L002] [related.rel_{MAX_RELATIONS_PER_FILE}]: more than {MAX_RELATIONS_PER_FILE} distinct relations",
    ),
    "reserved_kind": (
        "---\nid: H.15\nkind: memory_record\nproject: other\nworkspace: default\n---\n",
        "3: error[E003] [kind]: kind 'memory_record' would be the label :MemoryRecord, which the service uses for its own nodes",
    ),
    "reserved_type": (
        "---\nid: H.16\ntype: pack\n---\n",
        "3: error[E003] [type]: kind 'pack' would be the label :Pack",
    ),
    "control_char": (
        "---\nid: H.17\nnote: a\x01b\n---\n",
        "3: error[Y002] [note]: invalid YAML: character #x0001 is not allowed",
    ),
    "not_utf8": (b"---\nid: H.18\r\ntitle: caf\xe9\n---\n", "3: error[F002]: not UTF-8 text: byte 0xe9"),
    "passages": (
        "---\nid: H.20\n---\n" + "# section\n" * (MAX_PASSAGES_PER_FILE + 1),
        f"4: error[E005]: the body makes {MAX_PASSAGES_PER_FILE + 1:,} passages (sections and windows), more than {MAX_PASSAGES_PER_FILE:,}",
    ),
    "large_block": (
        f"---\nid: H.19\nnote: {'x' * MAX_FRONTMATTER_CHARS}\n---\n",
        f"1: error[Y004]: frontmatter is {MAX_FRONTMATTER_CHARS + 15:,} characters long, more than the {MAX_FRONTMATTER_CHARS:,} allowed",
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_each_hostile_class_is_a_file_error_with_line_and_field(name: str) -> None:
    raw, expected = HOSTILE[name]
    path = HOSTILE_PATHS.get(name, PATH)

    parsed = parse(raw, path)

    assert parsed.entity is None and parsed.rejected
    first = rendered(parsed)[0]
    assert first.startswith(f"{path}:{expected}"), first
    assert all(len(p.message) < 2 * ECHO_CHARS for p in parsed.problems)


def test_limits_are_inclusive() -> None:
    """A file exactly at each limit still parses."""
    text = (
        f"---\nid: {'I' * MAX_ID_LENGTH}\nnumbers: [{MIN_INTEGER}, {MAX_INTEGER}]\nbig: 1.0e+300\n"
        f"deep: {'[' * (MAX_YAML_DEPTH - 1)}{']' * (MAX_YAML_DEPTH - 1)}\nrelated:\n"
        + "".join(f"  rel_{i}: X\n" for i in range(MAX_RELATIONS_PER_FILE))
        + "---\n"
    )
    parsed = parse(text)
    assert parsed.entity is not None, rendered(parsed)
    assert (parsed.entity.properties["numbers"], parsed.entity.properties["big"]) == ([MIN_INTEGER, MAX_INTEGER], 1e300)


def test_long_link_target_is_a_warning_and_only_that_link_is_skipped() -> None:
    """A target is not the entity itself: like free text, it is reported and skipped."""
    parsed = parse(f"---\nid: X\nrelated:\n  uses: [Y, {'T' * 2000}]\n---\n")
    assert parsed.entity is not None and [lk.target for lk in parsed.entity.links] == ["Y"]
    assert rendered(parsed) == [
        f"{PATH}:4: warning[L006] [related.uses]: link target is 2,000 characters long, longer than an id may be ({MAX_ID_LENGTH}); skipped"
    ]


def test_keys_are_the_text_written_and_timestamps_are_iso_text() -> None:
    parsed = parse("---\nid: X\non: yes\n1: a\nwhen: 2026-03-28 10:00:00\nnested: {2026-01-01: x, true: y}\n---\n")
    assert parsed.entity is not None, rendered(parsed)
    assert parsed.entity.properties == {
        "on": True,
        "1": "a",
        "when": "2026-03-28T10:00:00",
        "nested": '{"2026-01-01": "x", "true": "y"}',
    }


def test_messages_echo_at_most_a_clipped_value() -> None:
    parsed = parse(f"---\nid: X\nrelated:\n  ? '{'Q' * 5000}'\n  : Y\n---\n")
    (problem,) = parsed.problems  # relation 'QQQ…' read as 'qqq…'
    assert max(len(run) for run in re.findall("[Qq]+", problem.message)) <= ECHO_CHARS
    assert problem.field is not None
    assert len(problem.field) <= ECHO_CHARS + 1 and problem.field.endswith("…")


@pytest.mark.parametrize(
    "text",
    [
        "---\nid: X\ntitle: T\n---\n\n# Heading\n\nFirst paragraph.\n",
        "---\nid: X\ntitle: T\nbad: [\n---\nbody\n",
        "---\nid: X\nkind: pack\n---\n",
        "---\nid: X\nsummary: one\nsummary: two\nrelated:\n  dependsOn: [Y]\n---\nbody\n",
    ],
)
@pytest.mark.parametrize("newline", ["\r", "\r\n"])
def test_cr_and_crlf_files_read_as_lf_files(text: str, newline: str) -> None:
    """Old Mac files (CR only) have lines too: the same entity, problems and line numbers."""
    expected, parsed = parse(text), parse(text.replace("\n", newline))
    assert rendered(parsed) == rendered(expected)
    if expected.entity is not None:
        assert parsed.entity is not None
        assert (parsed.entity.body, parsed.entity.body_line, parsed.entity.summary, parsed.entity.links) == (
            expected.entity.body,
            expected.entity.body_line,
            expected.entity.summary,
            expected.entity.links,
        )


def test_not_utf8_names_its_line_after_a_bom_and_cr_lines() -> None:
    parsed = parse(b"\xef\xbb\xbf---\rid: X\rtitle: ok\r\rbody \xff\r")
    assert rendered(parsed) == [f"{PATH}:5: error[F002]: not UTF-8 text: byte 0xff (invalid start byte)"]


def test_reserved_labels_are_read_from_the_cypher_files() -> None:
    assert {"Entity", "Missing", "Pack", "Passage", "MemoryRecord", "Project", "Workspace"} <= service_labels()
    query = "MATCH (a:X:Y)-[r:REL]->(b {k: 1}) WHERE b:Z SET c:W RETURN {id:a.id}, 'n:Quoted' // d:Comment"
    assert labels_in(parse_cypher("example", query)) == {"X", "Y", "Z", "W"}


@pytest.mark.parametrize("label", sorted(service_labels() - {"Entity"}))
def test_every_label_of_the_cypher_files_is_a_rejected_kind(label: str) -> None:
    parsed = parse(f"---\nid: X\nkind: {snake(label)}\n---\n")
    assert rendered(parsed) == [
        f"{PATH}:3: error[E003] [kind]: kind {snake(label)!r} would be the label :{label}, which the service uses for its own nodes"
    ]


@pytest.mark.parametrize("rel_type", sorted(service_relationship_types() - RECORD_LINK_TYPES))
def test_a_relation_named_like_a_service_link_is_skipped_with_a_warning(rel_type: str) -> None:
    """A pack's `contains` link would be walked as a pack's membership (CONTAINS), and deleted with it."""
    parsed = parse(f"---\nid: X\nrelated:\n  {rel_type.lower()}: [Y]\n  uses: [Z]\n---\n")
    assert parsed.entity is not None and [lk.target for lk in parsed.entity.links] == ["Z"]
    assert rendered(parsed) == [
        f"{PATH}:4: warning[L004] [related.{rel_type.lower()}]: relation {rel_type.lower()!r} would be the relationship "
        f"type {rel_type}, which the service uses for its own links; its links are skipped"
    ]


@pytest.mark.parametrize(
    ("relations", "where"),
    [
        ("  about: {inverse: concerns}\n  contains: {inverse: inside}\n", "3: [relations.about] relation 'about'"),
        ("  topic:\n    description: what a note is about\n    inverse: about\n", "5: [relations.topic.inverse]"),
        ("  Contains:\n    inverse: inside\n", "3: [relations.contains] relation 'contains'"),
    ],
)
def test_a_reserved_relation_is_refused_under_every_name_a_link_is_written_under(relations: str, where: str) -> None:
    """`concerns:` in a file once wrote ABOUT links through the inverse it is declared as."""
    raw = f"id: demo\nrelations:\n{relations}".encode()
    with pytest.raises(PackError) as raised:
        load_manifest(Path("p"), raw)
    assert str(raised.value).startswith(f"p/pack.yaml:{where}")
    assert "which the service uses for its own links; give it another name" in str(raised.value)


def test_a_reserved_kind_given_through_a_merge_key_names_the_merge_line() -> None:
    parsed = parse("---\nbase: &k {kind: memory_record, tags: [a]}\nid: X\n<<: [*k]\ntags: [b]\n---\n")
    assert rendered(parsed) == [
        f"{PATH}:4: error[E003] [kind]: kind 'memory_record' would be the label :MemoryRecord, which the service uses "
        "for its own nodes"
    ]


def test_reserved_relationship_types_are_read_from_the_cypher_files() -> None:
    assert {"CONTAINS", "ABOUT"} <= service_relationship_types() - RECORD_LINK_TYPES
    assert {relation.upper() for relation in get_args(Relation)} == RECORD_LINK_TYPES  # memory's, shared


# ---- fuzz: hypothesis over frontmatter, bounded for CI ----------------------------------------------

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# YAML cannot carry control characters, byte-order marks or line separators inside a scalar.
TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\ufeff\ufffe\uffff"),
    max_size=30,
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(MIN_INTEGER, MAX_INTEGER),
    st.floats(allow_nan=False, allow_infinity=False),
    st.dates(),
    TEXT,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT.filter(bool), inner, max_size=4),
    max_leaves=20,
)
KEYS = st.from_regex(r"x_[a-z0-9_]{0,12}", fullmatch=True)
NEWLINES = st.sampled_from(["\n", "\r\n", "\r"])


def good_block(properties: dict[str, object]) -> str:
    """A valid frontmatter body: an id, a kind, typed links and arbitrary other properties."""
    data = {"id": "FUZZ.1", "kind": "note", "related": {"uses": ["FUZZ.2"]}, **properties}
    return yaml.safe_dump(data, allow_unicode=True, width=10**9, sort_keys=False)


def file_text(block: str, newline: str, body: str = "Body.\n") -> str:
    return ("---\n" + block.rstrip("\n") + "\n---\n" + body).replace("\n", newline)


def nested(opener: str, depth: int) -> str:
    """``depth`` lists (``[``) or mappings (``{a: ``) inside one another."""
    closer = "]" if opener == "[" else "}"
    return "x_d: " + opener * depth + ("" if opener == "[" else "1") + closer * depth


def spellings(label: str) -> st.SearchStrategy[str]:
    return st.sampled_from([label, snake(label), snake(label).replace("_", "-")])


# Frontmatter lines of each hostile class, with drawn sizes and spellings.
HOSTILE_LINES: dict[str, st.SearchStrategy[str]] = {
    "binary": st.binary(max_size=20).map(lambda b: f"x_blob: !!binary {base64.b64encode(b).decode()}"),
    "binary_text": st.sampled_from(["title", "summary", "aliases"]).map(lambda key: f"{key}: !!binary aGk="),
    "set": st.lists(KEYS, min_size=1, max_size=4).map(lambda keys: "x_set: !!set {" + ", ".join(keys) + "}"),
    "big_int": (st.integers(min_value=MAX_INTEGER + 1) | st.integers(max_value=MIN_INTEGER - 1)).map(
        lambda n: f"x_n: [{n}]"
    ),
    "not_finite": st.sampled_from([".nan", ".inf", "-.Inf", "1.0e+999"]).map(lambda v: f"x_f: {v}"),
    "bad_tag": st.sampled_from(["int", "float", "bool", "timestamp"]).map(lambda tag: f"x_t: !!{tag} not-that"),
    "empty_key": st.sampled_from(['"": 1', "x_m: {'': 1}", "? ''\n: 1"]),
    "complex_key": st.sampled_from(["? [a, b]\n: 1", "? {a: 1}\n: 1", "x_m: {[a]: 1}"]),
    "recursive": st.sampled_from(["x_r: &a [*a]", "x_r: &a {b: *a}", "x_r: &a [1, {c: [*a]}]"]),
    "deep": st.builds(nested, st.sampled_from(["[", "{a: "]), st.integers(MAX_YAML_DEPTH, MAX_YAML_DEPTH + 100)),
    "bomb": st.builds(alias_bomb, st.integers(6, 9), st.integers(8, 12)),
    "long_id": st.integers(MAX_ID_LENGTH + 1, MAX_ID_LENGTH + 5000).map(lambda n: "id: " + "I" * n),
    "relations": st.integers(MAX_RELATIONS_PER_FILE + 1, MAX_RELATIONS_PER_FILE + 50).map(
        lambda n: "related:\n" + "\n".join(f"  r_{i}: T" for i in range(n))
    ),
    "reserved_kind": st.sampled_from(sorted(service_labels() - {"Entity"}))
    .flatmap(spellings)
    .map(lambda kind: f"kind: {kind}"),
    "large": st.integers(MAX_FRONTMATTER_CHARS, MAX_FRONTMATTER_CHARS + 10).map(lambda n: "x_big: " + "y" * n),
}


@FUZZ
@given(st.dictionaries(KEYS, VALUES, max_size=6), NEWLINES)
def test_fuzz_a_good_file_parses(properties: dict[str, object], newline: str) -> None:
    parsed = parse(file_text(good_block(properties), newline))
    assert parsed.entity is not None and not parsed.rejected, rendered(parsed)
    assert parsed.entity.body == "Body.\n" and [lk.target for lk in parsed.entity.links] == ["FUZZ.2"]


@FUZZ
@given(st.dictionaries(KEYS, VALUES, max_size=4), st.one_of(*HOSTILE_LINES.values()), st.booleans(), NEWLINES)
def test_fuzz_a_hostile_file_is_rejected_with_its_path_and_line(
    properties: dict[str, object], hostile: str, first: bool, newline: str
) -> None:
    good = good_block(properties).rstrip("\n")
    # A key written twice keeps its last value: a hostile core key goes last, to be the one read.
    first = first and not hostile.startswith(("id:", "kind:", "related:"))
    text = file_text(f"{hostile}\n{good}" if first else f"{good}\n{hostile}", newline)

    parsed = parse(text)

    errors = [p for p in parsed.problems if p.severity == "error"]
    assert parsed.entity is None and errors, rendered(parsed)
    assert all(p.path == PATH and p.line is not None and 1 <= p.line <= text.count(newline) + 1 for p in errors)


@FUZZ
@given(
    st.dictionaries(KEYS, VALUES, max_size=4),
    st.sampled_from([b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\xe2\x82"]),
    st.data(),
)
def test_fuzz_bytes_that_are_not_utf8_name_their_line(
    properties: dict[str, object], bad: bytes, data: st.DataObject
) -> None:
    raw = file_text(good_block(properties), "\n").encode("utf-8")
    at = data.draw(st.integers(0, len(raw)))
    lines_before = raw[:at].decode("utf-8", errors="ignore").count("\n")

    parsed = parse(raw[:at] + bad + raw[at:])

    assert rendered(parsed)[0].startswith(f"{PATH}:{lines_before + 1}: error[F002]: not UTF-8 text")


@FUZZ
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300).map(lambda b: b.decode("latin-1"))), NEWLINES)
def test_fuzz_any_text_after_a_fence_never_raises(noise: str, newline: str) -> None:
    parsed = parse(("---\n" + noise + "\n---\nbody\n").replace("\n", newline).encode("utf-8", "surrogatepass"))
    assert parsed.entity is not None or parsed.skipped or parsed.rejected
    assert all(p.path == PATH for p in parsed.problems)
