"""The input contract: every violation is an error naming its JSON path."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from graphrag.evaluation.contract import EvaluationInput, json_schema
from graphrag.evaluation.loading import ContractError, parse_input

pytestmark = pytest.mark.fast


def issues(document: dict[str, Any] | str) -> list[str]:
    raw = document if isinstance(document, str) else json.dumps(document)
    with pytest.raises(ContractError) as caught:
        parse_input(raw)
    return caught.value.issues


def test_valid_document_parses(small: dict[str, Any]) -> None:
    parsed = parse_input(json.dumps(small))
    assert isinstance(parsed, EvaluationInput)
    assert parsed.policy.minimum_recall_gain == 0.05


def test_unknown_field(small: dict[str, Any]) -> None:
    small["queries"][2]["difficulty"] = "easy"
    assert "queries[2].difficulty: Extra inputs are not permitted" in issues(small)


def test_wrong_schema_version(small: dict[str, Any]) -> None:
    small["schemaVersion"] = "0.9"
    assert any(line.startswith("schemaVersion:") for line in issues(small))


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers(small: dict[str, Any], literal: str) -> None:
    raw = json.dumps(small).replace('"minimumRecallGain": 0.05', f'"minimumRecallGain": {literal}')
    assert "policy.minimumRecallGain: Input should be a finite number" in issues(raw)


def test_non_finite_config_value(small: dict[str, Any]) -> None:
    raw = json.dumps(small).replace('"temperature": 0.0', '"temperature": NaN', 1)
    assert "arms.baseline.config.generation.temperature: config values must be finite numbers" in issues(raw)


def test_wrong_types_are_not_coerced(small: dict[str, Any]) -> None:
    small["queries"][0]["evidence"][0]["start"] = "5"
    small["queries"][1]["evidence"][0]["end"] = 12.0
    small["arms"]["candidate"]["runs"][0]["answer"]["claims"][0]["supported"] = 1
    found = issues(small)
    assert "queries[0].evidence[0].start: Input should be a valid integer" in found
    assert "queries[1].evidence[0].end: Input should be a valid integer" in found
    assert "arms.candidate.runs[0].answer.claims[0].supported: Input should be a valid boolean" in found


def test_missing_observation_is_an_error_not_a_default(small: dict[str, Any]) -> None:
    broken = json.loads(json.dumps(small))
    del broken["arms"]["candidate"]["runs"][0]["answer"]
    assert issues(broken) == ["arms.candidate.runs[0].answer: Field required"]
    del small["arms"]["baseline"]["runs"][5]
    missing = small["queries"][5]["queryId"]
    assert issues(small) == [f"arms.baseline.runs: no run recorded for query '{missing}'"]


def test_offset_splitting_a_surrogate_pair(small: dict[str, Any]) -> None:
    small["corpus"]["sources"].append({"sourceId": "astral", "snapshotId": "snap-1", "text": "a\U0001f600b"})
    small["queries"][3]["evidence"][0] = {"sourceId": "astral", "start": 1, "end": 2}
    assert issues(small) == ["queries[3].evidence[0].end: offset splits a surrogate pair"]


def test_offset_outside_the_source_and_empty_span(small: dict[str, Any]) -> None:
    small["corpus"]["sources"].append({"sourceId": "short", "snapshotId": "snap-1", "utf16Length": 10})
    small["queries"][0]["evidence"][0] = {"sourceId": "short", "start": 4, "end": 11}
    small["queries"][1]["evidence"][0] = {"sourceId": "short", "start": 4, "end": 4}
    small["queries"][2]["evidence"][0] = {"sourceId": "nowhere", "start": 0, "end": 1}
    assert issues(small) == [
        "queries[0].evidence[0].end: offset 11 is outside the source (UTF-16 length 10)",
        "queries[1].evidence[0].end: end 4 must be greater than start 4",
        "queries[2].evidence[0].sourceId: unknown source 'nowhere' (not in corpus.sources)",
    ]


def test_source_length_must_match_its_text(small: dict[str, Any]) -> None:
    small["corpus"]["sources"].append(
        {"sourceId": "astral", "snapshotId": "snap-1", "text": "a\U0001f600b", "utf16Length": 3}
    )
    small["corpus"]["sources"].append({"sourceId": "bare", "snapshotId": "snap-1"})
    found = issues(small)
    assert "corpus.sources[40].utf16Length: utf16Length 3 but the text has 4" in found
    assert "corpus.sources[41]: a source needs its text or its utf16Length so offsets can be checked" in found


def test_repeated_chunk_id_with_a_different_span(small: dict[str, Any]) -> None:
    first = small["arms"]["baseline"]["runs"][0]["hits"][0]
    moved = dict(first, start=first["start"] + 1)
    small["arms"]["candidate"]["runs"][2]["hits"][0] = moved
    found = issues(small)
    assert found == [
        f"arms.candidate.runs[2].hits[0].chunkId: chunk '{first['chunkId']}' denotes a different span "
        "at arms.baseline.runs[0].hits[0]"
    ]


def test_sources_from_different_snapshots(small: dict[str, Any]) -> None:
    small["corpus"]["sources"][7]["snapshotId"] = "snap-2"
    small["arms"]["candidate"]["corpusSnapshotId"] = "snap-0"
    assert issues(small) == [
        "corpus.sources[7].snapshotId: source is from snapshot 'snap-2', corpus is 'snap-1'",
        "arms.candidate.corpusSnapshotId: arm ran on snapshot 'snap-0', corpus is 'snap-1'",
    ]


def test_config_may_differ_only_in_preregistered_keys(small: dict[str, Any]) -> None:
    small["arms"]["candidate"]["config"]["reranker"]["name"] = "cross-encoder"
    small["arms"]["candidate"]["config"]["generation"]["seed"] = 3
    assert issues(small) == [
        "arms.candidate.config.generation.seed: differs from the baseline but 'generation.seed' "
        "is not preregistered in policy.mayDiffer",
        "arms.candidate.config.reranker.name: differs from the baseline but 'reranker.name' "
        "is not preregistered in policy.mayDiffer",
    ]
    small["policy"]["mayDiffer"] += ["reranker.name", "generation.seed"]
    parse_input(json.dumps(small))


def test_config_booleans_never_equal_numbers(small: dict[str, Any]) -> None:
    small["arms"]["baseline"]["config"]["reranker"]["enabled"] = True
    small["arms"]["candidate"]["config"]["reranker"]["enabled"] = 1
    assert len(issues(small)) == 1


def test_pins_and_hashes(small: dict[str, Any]) -> None:
    small["arms"]["baseline"]["config"]["models"]["embedder"] = "latest"
    small["judge"]["promptHash"] = "abc"
    found = issues(small)
    assert "arms.baseline.config.models.embedder: 'latest' is a moving reference; pin a revision" in found
    assert any(line.startswith("judge.promptHash: String should match pattern") for line in found)


def test_duplicates_are_rejected(small: dict[str, Any]) -> None:
    small["queries"][1]["queryId"] = small["queries"][0]["queryId"]
    small["judgeRatings"].append(dict(small["judgeRatings"][0]))
    small["humanRatings"].append(dict(small["humanRatings"][0]))
    found = issues(small)
    assert f"queries[1].queryId: duplicate query '{small['queries'][0]['queryId']}'" in found
    assert any(line.startswith("judgeRatings[8]: second judge rating") for line in found)
    assert any(line.startswith("humanRatings[4]: rater 'rater-1' rated query") for line in found)


def test_repeated_json_keys_are_rejected(small: dict[str, Any]) -> None:
    raw = json.dumps(small).replace('"minimumRecallGain": 0.05', '"minimumRecallGain": 0.05, "minimumRecallGain": 0.0')
    assert issues(raw) == ["policy.minimumRecallGain: duplicate key"]


def test_invalid_json() -> None:
    assert issues("{not json")[0].startswith("$: not valid JSON")


def test_timestamps_need_a_timezone(small: dict[str, Any]) -> None:
    small["policy"]["registeredAt"] = "2025-03-01T09:00:00"
    assert issues(small) == ["policy.registeredAt: Input should have timezone info"]


def test_json_schema_is_published_with_camel_case_names() -> None:
    schema = json_schema()
    assert schema["title"] == "EvaluationInput"
    assert "schemaVersion" in schema["properties"]
    assert schema["additionalProperties"] is False
    policy = schema["$defs"]["Policy"]["properties"]
    assert {"minimumRecallGain", "maximumPrecisionLoss", "maximumAnswerLoss", "registeredAt"} <= set(policy)


def test_document_validates_against_the_published_schema(small: dict[str, Any]) -> None:
    jsonschema.validate(small, json_schema())
