"""bench/corpora/wordnet.py on seven synsets, and the synonym and inverse questions of questions.py on its pack."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench.corpora import questions, wordnet
from bench.retrieval_eval import Question

pytestmark = pytest.mark.fast

PHRASING = Path(__file__).resolve().parent.parent / "bench" / "corpora" / "phrasing" / "wordnet.yaml"

# Five artifacts (two senses of "abacus"), the substance one is made of and the field it is used in.
SOURCES: dict[str, dict[str, Any]] = {
    "noun.artifact": {
        "03000001-n": {"definition": ["an instrumentality invented for a particular purpose"], "members": ["device"]},
        "03000002-n": {
            "definition": ["a small machine that is used for mathematical calculations"],
            "hypernym": ["03000001-n"],
            "members": ["calculator", "calculating machine"],
        },
        "03000003-n": {
            "definition": ["a calculator that performs arithmetic functions by manually sliding counters on rods"],
            "example": ["the merchant added the bill on an abacus", {"text": "beads on wires", "source": "a tutor"}],
            "hypernym": ["03000002-n"],
            "members": ["abacus", "counting frame"],
            "mero_part": ["03000004-n"],
            "mero_substance": ["15000001-n"],
            "domain_topic": ["06000001-n"],
        },
        "03000004-n": {
            "definition": ["a long thin implement made of metal or wood"],
            "hypernym": ["03000001-n"],
            "members": ["rod"],
        },
        "03000005-n": {
            "definition": ["a tablet placed horizontally on top of the capital of a column"],
            "hypernym": ["03000001-n"],
            "members": ["abacus"],
        },
    },
    "noun.substance": {"15000001-n": {"definition": ["the hard fibrous lignified substance"], "members": ["wood"]}},
    "noun.cognition": {
        "06000001-n": {"definition": ["the branch of pure mathematics dealing with numbers"], "members": ["arithmetic"]}
    },
}


def build(tmp_path: Path, synonyms: wordnet.Synonyms = "body") -> Path:
    source = tmp_path / "english-wordnet"
    (source / "src" / "yaml").mkdir(parents=True, exist_ok=True)
    for lexfile, synsets in SOURCES.items():
        text = yaml.safe_dump(synsets, sort_keys=True)
        (source / "src" / "yaml" / f"{lexfile}.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / f"pack-{synonyms}"
    wordnet.build(source, out, ["noun.artifact"], 100, synonyms, 17)
    return out


def read(pack: Path, synset_id: str) -> tuple[dict[str, Any], str]:
    parsed = questions.read_markdown(pack / f"wn-{synset_id}.md")
    assert parsed is not None
    return parsed


def test_entities_titles_links_and_relations(tmp_path: Path) -> None:
    pack = build(tmp_path)
    ids = ["03000001-n", "03000002-n", "03000003-n", "03000004-n", "03000005-n", "06000001-n", "15000001-n"]
    assert sorted(p.name for p in pack.iterdir()) == sorted(["pack.yaml", *(f"wn-{i}.md" for i in ids)])

    header, body = read(pack, "03000003-n")
    assert header == {
        "id": "wn-03000003-n",
        "kind": "term",
        "title": "abacus (calculator)",
        "summary": "A calculator that performs arithmetic functions by manually sliding counters on rods.",
        "related": {
            "is_a": ["wn-03000002-n"],
            "made_of": ["wn-15000001-n"],
            "in_field": ["wn-06000001-n"],
        },
    }
    assert "Synonyms: counting frame." in body.splitlines()
    assert "The merchant added the bill on an abacus.\n\nBeads on wires (a tutor)." in body
    assert read(pack, "03000005-n")[0]["title"] == "abacus (device)"  # the other sense, by its broader term
    assert read(pack, "03000004-n")[0]["related"] == {"is_a": ["wn-03000001-n"], "part_of": ["wn-03000003-n"]}
    assert read(pack, "03000001-n")[0] == {
        "id": "wn-03000001-n",
        "kind": "term",
        "title": "device",
        "summary": "An instrumentality invented for a particular purpose.",
    }
    assert read(pack, "15000001-n")[0]["kind"] == "material"
    assert read(pack, "06000001-n")[0]["kind"] == "field"

    meta = yaml.safe_load((pack / "pack.yaml").read_text(encoding="utf-8"))
    assert meta["id"] == "wordnet-artifact"
    assert {name: spec["inverse"] for name, spec in meta["relations"].items()} == {
        "is_a": "has_subtype",
        "part_of": "has_part",
        "made_of": "material_of",
        "in_field": "field_of",
    }
    assert all(spec["description"].endswith(".") for spec in meta["relations"].values())

    aliased, body = read(build(tmp_path, "aliases"), "03000003-n")
    assert aliased["aliases"] == ["counting frame"] and "Synonyms:" not in body


def test_synonym_and_inverse_questions(tmp_path: Path) -> None:
    pack = build(tmp_path)
    counts = dict.fromkeys(questions.DEFAULT_COUNTS, 0) | {"synonym": 5, "inverse": 9}
    result = questions.generate(pack, PHRASING, 17, counts)
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for query in result["queries"]:
        by_kind.setdefault(query["kind"], []).append(query)

    # Two terms have another name no other entity goes by: calculating machine and counting frame.
    owners = {"calculating machine": "wn-03000002-n", "counting frame": "wn-03000003-n"}
    synonyms = by_kind["synonym"]
    assert len(synonyms) == 2 and all(q["queryId"].startswith("wordnet-artifact-sy-") for q in synonyms)
    for query in synonyms:
        name = next(n for n in owners if n in query["text"])
        assert query["evidence"] == [owners[name]]
        assert (query["type"], query["naming"], query["hops"]) == ("single-hop", "title", 1)

    # One step backward: device has three subtypes, calculator one, abacus (calculator) one part, wood is
    # its material, arithmetic its field.
    expected = {
        "device": ["wn-03000001-n", "wn-03000002-n", "wn-03000004-n", "wn-03000005-n"],
        "calculator": ["wn-03000002-n", "wn-03000003-n"],
        "abacus (calculator)": ["wn-03000003-n", "wn-03000004-n"],
        "wood": ["wn-15000001-n", "wn-03000003-n"],
        "arithmetic": ["wn-06000001-n", "wn-03000003-n"],
    }
    inverse = by_kind["inverse"]
    assert len(inverse) == 5
    for query in inverse:
        start = next(
            t for t in sorted(expected, key=len, reverse=True) if re.search(rf"\b{re.escape(t)}", query["text"])
        )
        assert query["evidence"] == expected[start]
        assert (query["type"], query["naming"], query["hops"]) == ("multi-hop", "title", 1)


def test_kind_groups_only_when_tagged() -> None:
    fields = {"queryId": "q", "text": "t", "evidence": ["e"], "type": "single-hop", "naming": "title", "language": "en"}
    plain = Question.model_validate(fields).model_copy(update={"corpus": "wn"})
    tagged = Question.model_validate(fields | {"kind": "synonym"}).model_copy(update={"corpus": "wn"})
    assert plain.groups == ("all", "wn:single-hop/title", "wn:lang:en")
    assert tagged.groups == ("all", "wn:single-hop/title/synonym", "wn:lang:en")
