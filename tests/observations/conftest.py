"""The journal's tests run against the real disposable PostgreSQL; under CI=true a missing one fails them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime

import psycopg
import pytest

from graphrag.observations.admission import Admission, ObservationPolicy
from graphrag.observations.journal import Journal
from graphrag.observations.model import Observation, ObservedHit, sha256
from tests.observations.database import JournalDsns, NoTestCluster, fresh_journal, wipe

KEY = "k" * 40


def need_cluster(exc: NoTestCluster) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"the tests need the disposable PostgreSQL (`make test` starts it): {exc}")
    pytest.skip(str(exc))


@pytest.fixture(scope="module")
def journal_dsns() -> JournalDsns:
    """A journal database built afresh for each test module (migration, roles, LOGIN)."""
    try:
        return fresh_journal()
    except NoTestCluster as exc:
        need_cluster(exc)
        raise


@pytest.fixture
def dsns(journal_dsns: JournalDsns) -> JournalDsns:
    wipe(journal_dsns)
    return journal_dsns


@pytest.fixture
def journal(dsns: JournalDsns) -> Iterator[Journal]:
    with Journal(dsns.runtime) as opened:
        yield opened


def policy(mode: str = "text", allowlist: tuple[str, ...] = ("acme/pilot", "globex/pilot")) -> ObservationPolicy:
    return ObservationPolicy(mode, frozenset(allowlist), KEY.encode(), 30)  # type: ignore[arg-type]


def observation(
    account: str, query: str = "apollo landing", hits: tuple[str, ...] = ("A", "B"), **admitted: object
) -> Observation:
    """An observation of ``query`` by ``account`` returning entity hits ``hits``."""
    admission = policy(allowlist=(account,)).admit(account, query)
    assert admission is not None
    if admitted:
        admission = Admission(**{**vars(admission), **admitted})  # type: ignore[arg-type]
    return Observation(
        admission=admission,
        tool="pack_search",
        search_mode="hybrid",
        hits=[
            ObservedHit("entity", hit, rank, 1.0 / rank, sha256(f"file {hit}"), sha256(hit), sha256(hit), False)
            for rank, hit in enumerate(hits, 1)
        ],
        omitted=0,
        available=len(hits),
        corpus_version=None,
        embedder_version="test",
        service_version="0",
    )


def rows(dsns: JournalDsns, where: str = "true") -> list[tuple[object, ...]]:
    """What is physically stored (read as the superuser, past row-level security)."""
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        return connection.execute(
            f"SELECT observation_id, hit_id, account_id FROM retrieval.observation WHERE {where} ORDER BY observed_at, hit_rank"
        ).fetchall()


def now() -> datetime:
    return datetime.now(UTC)
