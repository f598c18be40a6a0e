"""``graphrag eval``: exit codes, stderr paths, byte-identical output, blind labelling round trip."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bench.eval_factory import experiment
from graphrag.cli.evaluation import eval_group

pytestmark = pytest.mark.fast


def write(tmp_path: Path, name: str, document: Any) -> str:
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    return str(path)


def invoke(*args: str) -> Any:
    return CliRunner().invoke(eval_group, list(args), catch_exceptions=False)


def test_group_is_named_eval_and_every_command_has_an_example() -> None:
    assert eval_group.name == "eval"
    assert "Example:" in invoke("--help").output
    for command in ("schema", "compare", "annotate", "annotation-key", "import-labels"):
        result = invoke(command, "--help")
        assert result.exit_code == 0
        assert "Example:" in result.output, command


def test_compare_exit_zero_and_byte_identical(tmp_path: Path, passing_document: dict[str, Any]) -> None:
    path = write(tmp_path, "experiment.json", passing_document)
    first, second = invoke("compare", path), invoke("compare", path)
    assert first.exit_code == 0
    assert first.stdout == second.stdout
    report = json.loads(first.stdout)
    assert report["outcome"] == "candidate_for_review"
    assert '"seed": 42' in first.stdout
    assert list(report) == sorted(report)


def test_compare_exit_one_on_insufficient_evidence(tmp_path: Path) -> None:
    result = invoke("compare", write(tmp_path, "small.json", experiment(n_test=8, n_dev=4)))
    assert result.exit_code == 1
    assert json.loads(result.stdout)["outcome"] == "insufficient_evidence"


def test_compare_exit_two_with_the_json_path_on_stderr(tmp_path: Path) -> None:
    document = experiment(n_test=8, n_dev=4)
    document["corpus"]["sources"].append({"sourceId": "astral", "snapshotId": "snap-1", "text": "a\U0001f600b"})
    document["queries"][3]["evidence"][0] = {"sourceId": "astral", "start": 0, "end": 2}
    result = invoke("compare", write(tmp_path, "bad.json", document))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "queries[3].evidence[0].end: offset splits a surrogate pair\n"


@pytest.mark.parametrize("args", [("compare",), ("compare", "/no/such/file.json"), ("frobnicate",)])
def test_bad_invocation_exits_two(args: tuple[str, ...]) -> None:
    assert invoke(*args).exit_code == 2


def test_schema_command_prints_the_schema() -> None:
    result = invoke("schema")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["title"] == "EvaluationInput"


def test_blind_labelling_round_trip(tmp_path: Path) -> None:
    document = experiment(n_test=8, n_dev=6)
    document["humanRatings"] = []
    path = write(tmp_path, "experiment.json", document)
    export = invoke("annotate", "--seed", "9", path)
    key = invoke("annotation-key", "--seed", "9", path)
    assert export.exit_code == key.exit_code == 0
    assert export.stdout == invoke("annotate", "--seed", "9", path).stdout
    labels, decoding = json.loads(export.stdout), json.loads(key.stdout)
    assert len(labels["items"]) == 6
    assert all(item["preference"] is None and item["raterId"] is None for item in labels["items"])
    assert "baseline" not in export.stdout and "candidate" not in export.stdout
    order = [entry["queryId"] for entry in decoding["items"]]
    assert order != sorted(order)  # shuffled
    sides = {entry["answerA"] for entry in decoding["items"]}
    assert sides == {"baseline", "candidate"}
    # The context shown is the answer's own packed context, with source text.
    first_key = decoding["items"][0]
    run = next(r for r in document["arms"][first_key["answerA"]]["runs"] if r["queryId"] == first_key["queryId"])
    shown = labels["items"][0]["answerA"]["context"]
    assert [c["chunkId"] for c in shown] == [h["chunkId"] for h in run["hits"][: len(shown)]]
    assert all(len(c["text"]) == c["end"] - c["start"] for c in shown)

    filled = copy.deepcopy(labels)
    filled["items"][0].update(preference="A", raterId="ann-1")
    filled["items"][1].update(preference="B", raterId="ann-1")
    filled["items"][2].update(preference="tie", raterId="ann-2")
    key_path = write(tmp_path, "key.json", key.stdout)
    result = invoke("import-labels", path, write(tmp_path, "labels.json", filled), key_path)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "imported 3 label(s)\n"
    merged = json.loads(result.stdout)
    by_query = {(r["queryId"], r["raterId"]): r["preference"] for r in merged["humanRatings"]}
    entries = decoding["items"]
    assert by_query[(entries[0]["queryId"], "ann-1")] == entries[0]["answerA"]
    assert by_query[(entries[1]["queryId"], "ann-1")] == entries[1]["answerB"]
    assert by_query[(entries[2]["queryId"], "ann-2")] == "tie"
    # Importing into the merged file again is idempotent.
    again = invoke(
        "import-labels", write(tmp_path, "merged.json", merged), write(tmp_path, "l2.json", filled), key_path
    )
    assert again.exit_code == 0
    assert json.loads(again.stdout)["humanRatings"] == merged["humanRatings"]


def test_import_rejects_half_filled_items_and_foreign_keys(tmp_path: Path) -> None:
    document = experiment(n_test=8, n_dev=6)
    path = write(tmp_path, "experiment.json", document)
    labels = json.loads(invoke("annotate", path).stdout)
    key = write(tmp_path, "key.json", invoke("annotation-key", path).stdout)
    labels["items"][0]["preference"] = "A"
    result = invoke("import-labels", path, write(tmp_path, "labels.json", labels), key)
    assert result.exit_code == 2
    assert result.stderr == "items[0]: preference and raterId must be filled together\n"
    other_key = write(tmp_path, "other.json", invoke("annotation-key", "--seed", "5", path).stdout)
    labels["items"][0]["raterId"] = "ann-1"
    result = invoke("import-labels", path, write(tmp_path, "labels.json", labels), other_key)
    assert result.exit_code == 2
    labels["items"][0]["preference"] = "left"
    result = invoke("import-labels", path, write(tmp_path, "labels.json", labels), key)
    assert result.exit_code == 2
    assert result.stderr.startswith("items[0].preference:")
