"""Every frontmatter rule of the README's pack rules, on single files (no store involved)."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.model import PackManifest
from ingest.parse import ParsedFile, parse_file

pytestmark = pytest.mark.fast

PACK = PackManifest(id="demo")
VOCABULARY = PackManifest.model_validate(
    {"id": "demo", "relations": {"supersedes": {"inverse": "superseded_by"}, "depends_on": {}}}
)


def parse(text: str, manifest: PackManifest = PACK, path: str = "notes/a.md") -> ParsedFile:
    raw = text.encode("utf-8")
    return parse_file(manifest, path, raw, hashlib.sha256(raw).hexdigest())


def rendered(parsed: ParsedFile) -> list[str]:
    return [p.render() for p in parsed.problems]


def links(parsed: ParsedFile) -> list[tuple[str, str, bool, float | None, str | None]]:
    assert parsed.entity is not None, rendered(parsed)
    return [(lk.relation, lk.target, lk.reverse, lk.weight, lk.note) for lk in parsed.entity.links]


def test_full_entity() -> None:
    parsed = parse(
        "---\nid: DP.SOTA.004\nkind: sota\ntitle: GraphRAG\nsummary: One sentence.\naliases: [G]\ntags: retrieval\n"
        "related:\n  depends_on: [DP.SOTA.001, DP.METHOD.002]\n  part_of: DP.SOTA\n  relates_to:\n"
        "    - id: FPF.A.1\n      weight: 0.8\n      note: why\n---\n# Heading\n\nBody text.\n"
    )
    entity = parsed.entity
    assert entity is not None and parsed.problems == []
    assert (entity.id, entity.kind, entity.kind_label, entity.title, entity.summary) == (
        "DP.SOTA.004",
        "sota",
        "Sota",
        "GraphRAG",
        "One sentence.",
    )
    assert (entity.aliases, entity.tags, entity.path) == (["G"], ["retrieval"], "notes/a.md")
    assert entity.body == "# Heading\n\nBody text.\n"
    assert links(parsed) == [
        ("depends_on", "DP.SOTA.001", False, None, None),
        ("depends_on", "DP.METHOD.002", False, None, None),
        ("part_of", "DP.SOTA", False, None, None),
        ("relates_to", "FPF.A.1", False, 0.8, "why"),
    ]


def test_defaults_come_from_pack_path_heading_and_first_paragraph() -> None:
    entity = parse("---\nstatus: draft\n---\n\n# Сводка знаний\n\n> Первый абзац,\n> в две строки.\n\nВторой.\n").entity
    assert entity is not None
    assert (entity.id, entity.kind, entity.title) == ("demo/notes/a", "entity", "Сводка знаний")
    assert entity.summary == "Первый абзац, в две строки."
    assert entity.properties == {"status": "draft"}


def test_name_and_type_are_aliases_of_title_and_kind() -> None:
    entity = parse("---\nid: X\nname: Named\ntype: method\n---\n").entity
    assert entity is not None and (entity.title, entity.kind, entity.kind_label) == ("Named", "method", "Method")


def test_title_wins_over_name_and_name_stays_a_property() -> None:
    entity = parse("---\nid: X\ntitle: T\nname: N\nkind: a\ntype: b\n---\n").entity
    assert entity is not None and (entity.title, entity.kind) == ("T", "a")
    assert entity.properties == {"name": "N", "type": "b"}


def test_related_as_list_of_relation_objects_and_bare_list() -> None:
    objects = parse("---\nid: X\nrelated:\n  - {relation: dependsOn, target: Y, weight: 0.5}\n---\n")
    assert links(objects) == [("depends_on", "Y", False, 0.5, None)]
    bare = parse("---\nid: X\nrelated: [Y, Z]\n---\n")
    assert links(bare) == [("relates_to", "Y", False, None, None), ("relates_to", "Z", False, None, None)]


@pytest.mark.parametrize("spelling", ["dependsOn", "depends-on", "Depends On", "DEPENDS_ON"])
def test_relation_spellings_are_normalised_and_reported(spelling: str) -> None:
    parsed = parse(f"---\nid: X\nrelated:\n  {spelling}: [Y]\n---\n")
    assert links(parsed) == [("depends_on", "Y", False, None, None)]
    assert rendered(parsed) == [
        f"notes/a.md:4: warning[L005] [related.{spelling}]: relation {spelling!r} read as 'depends_on'"
    ]


def test_invalid_relation_name_skips_only_that_link() -> None:
    parsed = parse("---\nid: X\nrelated:\n  связан_с: [Y]\n  uses: [Z]\n---\n")
    assert links(parsed) == [("uses", "Z", False, None, None)]
    assert rendered(parsed) == [
        "notes/a.md:4: warning[L003] [related.связан_с]: relation name 'связан_с' is not [a-z][a-z0-9_]*; its links are skipped"
    ]


def test_same_link_twice_is_one_link() -> None:
    parsed = parse("---\nid: X\nrelated:\n  uses: [Y, Y]\n  relates_to: Y\n---\n")
    assert links(parsed) == [("uses", "Y", False, None, None), ("relates_to", "Y", False, None, None)]


def test_bad_link_values_are_warnings() -> None:
    parsed = parse(
        "---\nid: X\nrelated:\n  uses:\n    - {note: no target}\n    - {id: Y, weight: heavy}\n    - [nested]\n---\n"
    )
    assert links(parsed) == [("uses", "Y", False, None, None)]
    assert [p.message for p in parsed.problems] == [
        "link object without an 'id' or 'target': {'note': 'no target'}",
        "weight 'heavy' is not a number; the link keeps no weight",
        "link target ['nested'] is neither an id nor a link object",
    ]


def test_vocabulary_inverse_names_and_top_level_relation_keys() -> None:
    parsed = parse("---\nid: X\nsuperseded_by: NEW\ndepends_on: [Y]\nowner: Z\n---\n", VOCABULARY)
    assert links(parsed) == [("supersedes", "NEW", True, None, None), ("depends_on", "Y", False, None, None)]
    assert parsed.entity is not None and parsed.entity.properties == {"owner": "Z"}


def test_undeclared_relation_in_a_pack_with_vocabulary_is_an_error_of_that_link_alone() -> None:
    parsed = parse("---\nid: X\nrelated:\n  uses: [Y]\n  depends_on: [Z]\n---\n", VOCABULARY)
    assert links(parsed) == [("depends_on", "Z", False, None, None)]
    assert not parsed.rejected and parsed.entity is not None
    assert rendered(parsed) == [
        "notes/a.md:4: error[L001] [related.uses]: relation 'uses' is not declared in pack.yaml, so its links are not "
        "stored (the file is)"
    ]


def test_without_vocabulary_any_relation_is_stored_as_written() -> None:
    parsed = parse("---\nid: X\nrelated:\n  uses: [Y]\n---\n")
    assert links(parsed) == [("uses", "Y", False, None, None)] and rendered(parsed) == []


def test_without_vocabulary_top_level_keys_stay_properties() -> None:
    entity = parse("---\nid: X\ndepends_on: [Y]\n---\n").entity
    assert entity is not None and entity.links == [] and entity.properties == {"depends_on": ["Y"]}


def test_duplicate_keys_are_reported_with_their_line() -> None:
    parsed = parse("---\nid: X\nsummary: first\nsummary: second\nrelated:\n  uses: [A]\n  uses: [B]\n---\n")
    assert parsed.entity is not None and parsed.entity.summary == "second"
    assert rendered(parsed) == [
        "notes/a.md:4: warning[Y006] [summary]: duplicate key 'summary': the last value is used",
        "notes/a.md:7: warning[Y006] [related.uses]: duplicate key 'related.uses': the last value is used",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "---\nid: X\nname_ru: «a: b»\n---\n",
            "notes/a.md:3: error[Y002] [name_ru]: invalid YAML: mapping values are not allowed in this context; the value "
            "holds ': ', which YAML reads as a new key: quote the whole value, as in name_ru: \"«a: b»\"",
        ),
        ("---\n- a\n- b\n---\n", "notes/a.md:2: error[Y003]: frontmatter must be a mapping of keys, found a list"),
        ("---\njust text\n---\n", "notes/a.md:2: error[Y003]: frontmatter must be a mapping of keys, found a str"),
        ("---\nid: X\n", "notes/a.md:1: error[Y001]: frontmatter block opened with '---' is never closed"),
        ("---\nid: X\ntitle: [a, b]\n---\n", "notes/a.md:3: error[E001] [title]: must be text, found ['a', 'b']"),
        (
            "---\nid: has space\n---\n",
            "notes/a.md:2: error[E001] [id]: id 'has space' must be letters, digits and . _ : / + - without spaces",
        ),
        ("---\nid: X\nname: {a: 1}\n---\n", "notes/a.md:3: error[E001] [name]: must be text, found {'a': 1}"),
    ],
)
def test_rejected_files_name_path_line_and_field(text: str, expected: str) -> None:
    parsed = parse(text)
    assert parsed.entity is None and parsed.rejected
    assert rendered(parsed) == [expected]


def test_file_without_frontmatter_is_skipped() -> None:
    parsed = parse("# README\n\nNot an entity.\n")
    assert parsed.skipped and parsed.entity is None and parsed.problems == []


def test_real_world_values_dates_nested_mappings_escapes_bom_crlf() -> None:
    text = '\ufeff---\r\nid: X\r\ncreated: 2026-03-28\r\ntrust:\r\n  F: 3\r\n  R: 0.5\r\nquote: "say \\"hi\\""\r\nmixed: [1, a]\r\n---\r\nbody\r\n'
    entity = parse(text).entity
    assert entity is not None
    assert entity.properties == {
        "created": "2026-03-28",
        "trust": json.dumps({"F": 3, "R": 0.5}, sort_keys=True),
        "quote": 'say "hi"',
        "mixed": ["1", "a"],
    }
    assert entity.body == "body\n"


def test_graph_property_names_are_kept_under_another_name() -> None:
    parsed = parse("---\nid: X\npack: other\n---\n")
    assert parsed.entity is not None and parsed.entity.properties == {"fm_pack": "other"}
    assert rendered(parsed) == [
        "notes/a.md:3: warning[E008] [pack]: key 'pack' is a graph property name; kept as 'fm_pack'"
    ]


def test_the_ingesters_own_bookkeeping_names_are_graph_property_names() -> None:
    parsed = parse("---\nid: X\nfile_stamp: forged\ntext_key: '1'\n---\n")
    assert parsed.entity is not None and parsed.entity.properties == {"fm_file_stamp": "forged", "fm_text_key": "1"}


# YAML cannot carry control characters, byte-order marks or line separators inside a scalar.
PRINTABLE = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\ufeff\ufffe\uffff")


@given(st.text(alphabet=PRINTABLE, max_size=60))
def test_any_summary_text_round_trips(summary: str) -> None:
    entity = parse("---\nid: X\nsummary: " + json.dumps(summary, ensure_ascii=False) + "\n---\n").entity
    assert entity is not None and entity.summary == summary


def test_pack_reading_skips_hidden_folders_and_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ingest.pipeline import check

    for rel in ("a.md", "sub/deeper/b.md", ".git/c.md", ".obsidian/d.md", "sub/.e.md", "notes.txt"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nid: {rel.replace('/', '_').replace('.', '_')}\n---\n")

    report = check([tmp_path])

    assert sorted(report.added) == ["a_md", "sub_deeper_b_md"]


def test_synonyms_written_in_the_body_are_told_to_go_under_aliases() -> None:
    parsed = parse(
        "---\nid: T.1\ntitle: eggplant\naliases: [brinjal]\n---\nA plant.\n\n**Synonyms:** aubergine, brinjal.\n"
    )
    assert parsed.entity is not None
    assert rendered(parsed) == [
        "notes/a.md:8: warning[E009] [aliases]: the body lists other names ('aubergine'); list them under `aliases:`, "
        "where a question finds them"
    ]
    assert rendered(parse("---\nid: T.2\naliases: [aubergine]\n---\nSynonyms: aubergine\n")) == []
