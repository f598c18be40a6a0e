"""``graphrag eval record``: our own pack_search, through MCP, recorded as an arm of the contract."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphrag.errors import InvalidArgument
from graphrag.evaluation.contract import Arm, Corpus
from graphrag.evaluation.recording import RecordQuery
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
    out, corpus_out = tmp_path / "arm.json", tmp_path / "corpus.json"

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
        await record_arm(tight, [RecordQuery(query_id="q1", text="rocket")], CONFIG, "baseline", {"limit": 50})
