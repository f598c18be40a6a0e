"""`graphrag observations export`: the token owner's unexpired texts only, one per fingerprint (the latest), at most
1,000, each with the earlier deadline, into a new 0600 file that `graphrag eval record` reads; only the count shown."""

from __future__ import annotations

import json
import stat
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
import yaml
from click.testing import CliRunner

from graphrag.cli import main
from graphrag.evaluation.recording import QueryFile
from graphrag.observations.admission import LIFETIME
from graphrag.observations.journal import Journal
from tests.observations.conftest import now, observation
from tests.observations.database import JournalDsns

TOKENS = {
    "projects": {"acme": {"active": True}, "globex": {"active": True}},
    "tokens": [
        {"name": "pilot", "token": "acme-pilot-token-0001", "project": "acme"},
        {"name": "pilot", "token": "globex-pilot-token-01", "project": "globex"},
    ],
}


def test_export_selects_the_latest_unexpired_text_per_fingerprint_of_the_account_only(
    journal: Journal, dsns: JournalDsns
) -> None:
    first = observation("acme/pilot", "Apollo landing", hits=("A",), observed_at=now() - timedelta(hours=2))
    latest = observation("acme/pilot", "apollo   LANDING", hits=("B", "A"), observed_at=now() - timedelta(hours=1))
    short = observation("acme/pilot", "saturn rocket", hits=(), text_expires_at=now() + timedelta(hours=1))
    hashed = observation("acme/pilot", "luna probe", query_text=None, text_expires_at=None)
    other = observation("globex/pilot", "vostok flight")
    for made in (first, latest, short, hashed, other):
        journal.write(made)

    exported = {c.text: c for c in journal.export("acme/pilot")}

    assert sorted(exported) == ["apollo LANDING", "saturn rocket"]
    assert exported["apollo LANDING"].query_id == str(latest.admission.observation_id)
    assert exported["apollo LANDING"].returned == ["B", "A"]
    assert exported["saturn rocket"].returned == []
    assert exported["saturn rocket"].expires_at == short.admission.text_expires_at  # the earlier deadline
    record_deadline = latest.admission.observed_at + LIFETIME
    assert exported["apollo LANDING"].expires_at == min(
        record_deadline, latest.admission.text_expires_at or record_deadline
    )


def test_export_is_capped_at_a_thousand_and_leaves_out_texts_past_their_window(
    journal: Journal, dsns: JournalDsns
) -> None:
    for n in range(1_001):
        journal.write(observation("acme/pilot", f"question number {n}", hits=("A",)))
    with psycopg.connect(dsns.admin, autocommit=True) as connection:  # one text window has passed, cleanup not yet run
        connection.execute(
            "UPDATE retrieval.observation SET text_expires_at = observed_at + interval '1 second', "
            "observed_at = observed_at - interval '1 hour' WHERE query_text = 'question number 7'"
        )
    exported = journal.export("acme/pilot")
    assert len(exported) == 1_000
    assert "question number 7" not in {c.text for c in exported}


@pytest.fixture
def export_env(dsns: JournalDsns, tmp_path: Path) -> dict[str, str]:
    tokens = tmp_path / "tokens.yaml"
    tokens.write_text(yaml.safe_dump(TOKENS), encoding="utf-8")
    return {
        "GRAPHRAG_OBSERVATIONS_DSN": dsns.runtime,
        "GRAPHRAG_TOKENS_FILE": str(tokens),
        "GRAPHRAG_EXPORT_TOKEN": "acme-pilot-token-0001",
    }


def test_export_command_writes_a_new_private_file_that_eval_record_reads(
    journal: Journal, export_env: dict[str, str], tmp_path: Path
) -> None:
    journal.write(observation("acme/pilot", "apollo landing"))
    journal.write(observation("globex/pilot", "vostok flight"))
    out = tmp_path / "candidates.json"

    result = CliRunner().invoke(main, ["observations", "export", str(out)], env=export_env)

    assert (result.exit_code, result.stdout) == (0, "exported 1 candidates\n")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    written = json.loads(out.read_text(encoding="utf-8"))
    assert [(q.query_id, q.text) for q in QueryFile.model_validate(written).queries] == [
        (written["queries"][0]["queryId"], "apollo landing")
    ]
    assert set(written["queries"][0]) == {"queryId", "text", "tool", "mode", "observedAt", "expiresAt", "returned"}

    again = CliRunner().invoke(main, ["observations", "export", str(out)], env=export_env)
    assert again.exit_code == 2 and "exists: export writes a new file only" in again.stderr
    assert json.loads(out.read_text(encoding="utf-8")) == written


def test_export_refuses_a_token_the_tokens_file_does_not_hold(export_env: dict[str, str], tmp_path: Path) -> None:
    env = {**export_env, "GRAPHRAG_EXPORT_TOKEN": "acme-pilot-token-0001x"}
    result = CliRunner().invoke(main, ["observations", "export", str(tmp_path / "out.json")], env=env)
    assert result.exit_code == 2
    assert result.stderr == "error: invalid_argument: GRAPHRAG_EXPORT_TOKEN is not a token of GRAPHRAG_TOKENS_FILE\n"
    assert not (tmp_path / "out.json").exists()
