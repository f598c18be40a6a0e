"""``graphrag eval record``: our own ranking, in process (every configuration over one load of the stores) or
through the pack_search tool, recorded as arms of the contract."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphrag.cli import main
from graphrag.errors import InvalidArgument
from graphrag.evaluation.contract import Arm, Corpus
from graphrag.evaluation.recording import RecordQuery
from graphrag.retrieval.candidates import Candidate, Evidence, Question, Starts
from graphrag.retrieval.config import DEFAULT, RECIPES, RetrieverSpec
from graphrag.retrieval.registry import Registration, register
from graphrag.server.recording import record_arm
from tests.conftest import EXAMPLES

CONFIG = {
    "models": {"generator": "none@0"},
    "promptHashes": {"answer": "sha256:" + "0" * 64},
    "chunker": {"unit": "entity-summary"},
    "reranker": {"name": "none"},
    "generation": {"mode": "retrieval-only"},
    "contextSerialization": {"format": "title. summary"},
}


def test_record_writes_a_valid_arm_and_its_sources(run_ingest, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    queries = tmp_path / "queries.json"
    queries.write_text(
        json.dumps(
            [{"queryId": "q1", "text": "Saturn V rocket"}, {"queryId": "q2", "text": "первый человек в космосе"}]
        )
    )
    config = tmp_path / "config.json"
    config.write_text(json.dumps(CONFIG))
    out, corpus_out = tmp_path / "arms" / "arm.json", tmp_path / "sources" / "corpus.json"  # folders made for them

    result = subprocess.run(
        [sys.executable, "-m", "graphrag.cli", "eval", "record", str(queries), "--config", str(config),
         "--out", str(out), "--corpus-out", str(corpus_out), "--limit", "3", "--label", "baseline"],
        env={**os.environ, "GRAPHRAG_HOME": str(tmp_path / "home")},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    arm = Arm.model_validate_json(out.read_text())
    corpus = Corpus.model_validate_json(corpus_out.read_text())
    assert [run.query_id for run in arm.runs] == ["q1", "q2"]
    assert arm.runs[0].hits[0].chunk_id == "SM.VEHICLE.SATURNV"
    assert arm.runs[1].hits[0].chunk_id == "SM.PERSON.GAGARIN"
    assert arm.config.models["embedder"].startswith("use-multilingual-v3@")
    assert arm.corpus_snapshot_id == corpus.snapshot_id
    texts = {source.source_id: source.text for source in corpus.sources}
    first = arm.runs[0].hits[0]
    assert texts[first.source_id] is not None and first.end == len(texts[first.source_id].encode("utf-16-le")) // 2


async def test_record_refuses_a_ranking_the_response_budget_cut(run_ingest, settings) -> None:  # type: ignore[no-untyped-def]
    """An arm holds whole rankings: hits left out to fit one response would bias every metric."""
    run_ingest(EXAMPLES / "space-missions")
    tight = settings.model_copy(update={"graphrag_response_budget_bytes": 2_000})
    with pytest.raises(InvalidArgument, match=r"^invalid_argument: pack_search left out \d+ hits of query q1 "):
        await record_arm(tight, [RecordQuery(query_id="q1", text="rocket")], DEFAULT, CONFIG, "baseline", {"limit": 50})


def record(home: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    queries = tmp_path / "queries.json"
    queries.write_text(json.dumps([{"queryId": "q1", "text": "Which programme is Apollo 11 part of?"}]))
    config = tmp_path / "config.json"
    config.write_text(json.dumps(CONFIG))
    return subprocess.run(
        [sys.executable, "-m", "graphrag.cli", "eval", "record", str(queries), "--config", str(config), *args],
        env={**os.environ, "GRAPHRAG_HOME": str(home)}, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_record_ranks_several_recipes_in_one_pass_as_the_tool_would(run_ingest, settings, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    home, arms = settings.graphrag_home, tmp_path / "arms"

    both = record(home, tmp_path, "--out", str(arms), "--search-config", "default", "--search-config", "no-walks")
    tool = record(home, tmp_path, "--out", str(tmp_path / "tool.json"), "--through", "mcp")

    assert both.returncode == 0 and tool.returncode == 0, both.stderr + tool.stderr
    default, no_walks = (
        Arm.model_validate_json((arms / f"{name}.json").read_text()) for name in ("default", "no-walks")
    )
    through_tool = Arm.model_validate_json((tmp_path / "tool.json").read_text())
    assert [h.chunk_id for h in default.runs[0].hits] == [h.chunk_id for h in through_tool.runs[0].hits]
    assert default.runs[0].hits[1].chunk_id == "SM.PROGRAM.APOLLO"  # the typed step from the start
    assert [h.chunk_id for h in no_walks.runs[0].hits] != [h.chunk_id for h in default.runs[0].hits]
    digests = {arm.config.reranker["searchConfig"] for arm in (default, no_walks)}
    assert digests == {DEFAULT.digest(), RECIPES["no-walks"].digest()}
    assert (arms / "no-walks-corpus.json").is_file()


def test_record_refuses_a_search_config_that_is_no_recipe_and_no_file(tmp_path: Path) -> None:
    result = record(tmp_path / "home", tmp_path, "--out", str(tmp_path / "a.json"), "--search-config", "no-walk")

    assert result.returncode == 2
    assert (
        "search config 'no-walk' is neither a recipe (default, no-walks, no-chain, no-vector) nor a file"
        in result.stderr
    )


class Favourite:
    """A retriever of this test's own, as a library would add one: the same entity for every question."""

    evidence: Evidence = "graph"

    def retrieve(self, question: Question, starts: Starts | None = None) -> list[Candidate]:
        return [Candidate("SM.PERSON.GAGARIN", 1.0)]


def test_a_retriever_registered_outside_the_package_ranks_through_eval_record(
    run_ingest, settings, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Registered under a name and named in a configuration file: nothing in graphrag/ knows it."""
    run_ingest(EXAMPLES / "space-missions")
    register("favourite", Registration(build=lambda sources, config: Favourite(), meaning="One entity, always."))
    mine = DEFAULT.model_copy(
        update={"retrievers": (*DEFAULT.retrievers, RetrieverSpec(name="favourite", weight_named=5, weight_unnamed=5))}
    )
    search_config = tmp_path / "favourite.json"
    search_config.write_text(mine.model_dump_json())
    queries, config = tmp_path / "queries.json", tmp_path / "config.json"
    queries.write_text(json.dumps([{"queryId": "q1", "text": "Saturn V rocket"}]))
    config.write_text(json.dumps(CONFIG))
    arms = tmp_path / "arms"

    result = CliRunner().invoke(
        main,
        ["eval", "record", str(queries), "--config", str(config), "--limit", "3", "--out", str(arms),
         "--search-config", "default", "--search-config", str(search_config)],
        env={"GRAPHRAG_HOME": str(settings.graphrag_home)},
    )  # fmt: skip

    assert result.exit_code == 0, result.output
    default, favourite = (
        Arm.model_validate_json((arms / f"{name}.json").read_text()) for name in ("default", "favourite")
    )
    assert "SM.PERSON.GAGARIN" not in [h.chunk_id for h in default.runs[0].hits]
    assert "SM.PERSON.GAGARIN" in [h.chunk_id for h in favourite.runs[0].hits]
    assert favourite.config.reranker["searchConfig"] == mine.digest()
