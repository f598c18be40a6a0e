"""The journal's database rules, against the real disposable PostgreSQL with the provisioned roles: account
isolation, feedback bound to the exact hit of its own account, connection reuse, the clock rules, physical
expiry, the monitor's limits, and a runtime role that row-level security does not bind."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta

import psycopg
import pytest

from graphrag.observations import maintenance
from graphrag.observations.journal import Journal, JournalUnavailable
from tests.observations.conftest import now, observation, rows
from tests.observations.database import OWNER, RUNTIME, JournalDsns, admin

OLD = "now() - interval '2160 hours' - interval '1 minute'"


def visible(journal: Journal, account: str) -> list[tuple[str, str]]:
    with journal.transaction(account) as cursor:
        cursor.execute("SELECT observation_id::text AS id, hit_id FROM retrieval.observation ORDER BY hit_rank")
        return [(row["id"], row["hit_id"]) for row in cursor.fetchall()]


def inject_old(dsns: JournalDsns, account: str, hits: int = 1, text: bool = False) -> None:
    """Rows observed 90 days and a minute ago, written as the superuser (the runtime may not write them)."""
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        connection.execute(
            f"""INSERT INTO retrieval.observation (observation_id, hit_id, account_id, observed_at, tool, search_mode,
                query_hash, query_text, text_expires_at, hit_kind, hit_rank, excerpt_truncated, returned_count,
                omitted_count, available_count)
            SELECT gen_random_uuid(), 'E' || n, %s, {OLD}, 'pack_search', 'hybrid', sha256(n::text::bytea),
                   %s, CASE WHEN %s THEN {OLD} + interval '1 day' END, 'entity', 1, false, 1, 0, 1
            FROM generate_series(1, %s) AS n""",
            [account, "old text" if text else None, text, hits],
        )


def test_each_account_sees_only_its_own_rows_and_nobody_without_identity(journal: Journal, dsns: JournalDsns) -> None:
    mine = observation("acme/pilot")
    theirs = observation("globex/pilot", hits=("C",))
    journal.write(mine)
    journal.write(theirs)

    assert visible(journal, "acme/pilot") == [
        (str(mine.admission.observation_id), "A"),
        (str(mine.admission.observation_id), "B"),
    ]
    assert visible(journal, "globex/pilot") == [(str(theirs.admission.observation_id), "C")]
    assert visible(journal, "initech/pilot") == []
    with psycopg.connect(dsns.runtime, autocommit=True) as connection:  # no account bound: nothing at all
        assert connection.execute("SELECT count(*) FROM retrieval.observation").fetchone() == (0,)
    assert len(rows(dsns)) == 3


def test_an_account_cannot_write_rows_of_another(journal: Journal, dsns: JournalDsns) -> None:
    forged = observation("acme/pilot")
    with (
        pytest.raises(JournalUnavailable, match="InsufficientPrivilege"),
        journal.transaction("globex/pilot") as cursor,
    ):
        from graphrag.observations.sql import query

        cursor.execute(query("observation_record").statement, forged.parameters())
    assert rows(dsns) == []


def test_feedback_binds_to_an_exact_hit_of_the_callers_own_observation(journal: Journal, dsns: JournalDsns) -> None:
    mine = observation("acme/pilot")
    journal.write(mine)
    observation_id = mine.admission.observation_id

    assert journal.feedback("acme/pilot", observation_id, "A", True)
    assert journal.feedback("acme/pilot", observation_id, "A", None)  # a later answer replaces the earlier one
    assert not journal.feedback("acme/pilot", observation_id, "Z", True)  # not a hit of it
    assert not journal.feedback("globex/pilot", observation_id, "A", True)  # not its observation
    assert not journal.feedback("acme/pilot", uuid.uuid4(), "A", True)  # no such observation (or not written yet)
    insert = (
        "INSERT INTO retrieval.citation_feedback (observation_id, hit_id, account_id, cited) VALUES (%s, 'B', %s, true)"
    )
    # written directly: row-level security refuses it, and past it (as the superuser) the composite key does
    with journal.transaction("globex/pilot") as cursor, pytest.raises(psycopg.errors.InsufficientPrivilege):
        cursor.execute(insert, [observation_id, "globex/pilot"])
    with psycopg.connect(dsns.admin) as connection, pytest.raises(psycopg.errors.ForeignKeyViolation):
        connection.execute(insert, [observation_id, "globex/pilot"])  # past row-level security: the key alone
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        stored = connection.execute(
            "SELECT observation_id, hit_id, account_id, cited FROM retrieval.citation_feedback"
        ).fetchall()
    assert stored == [(observation_id, "A", "acme/pilot", None)]


def test_a_reused_connection_never_carries_an_account_into_the_next_transaction(dsns: JournalDsns) -> None:
    with Journal(dsns.runtime, connections=1) as journal:  # one connection: every operation reuses it
        journal.write(observation("acme/pilot"))
        journal.write(observation("globex/pilot", hits=("C",)))
        for _ in range(5):
            assert [hit for _, hit in visible(journal, "acme/pilot")] == ["A", "B"]
            assert [hit for _, hit in visible(journal, "globex/pilot")] == ["C"]
        with journal._pool.connection() as connection:  # the same connection, after all those transactions
            assert connection.execute("SELECT current_setting('retrieval.account', true)").fetchone() in [
                ("",),
                (None,),
            ]
            assert connection.execute("SELECT count(*) FROM retrieval.observation").fetchone() == (0,)


@pytest.mark.parametrize(
    ("shift", "accepted"),
    [(timedelta(minutes=4), True), (timedelta(minutes=6), False), (-timedelta(hours=2160, minutes=1), False)],
    ids=["4 min ahead", "6 min ahead", "already expired"],
)
def test_insertion_refuses_expired_rows_and_clocks_over_five_minutes_ahead(
    journal: Journal, dsns: JournalDsns, shift: timedelta, accepted: bool
) -> None:
    observed_at = now() + shift
    shifted = observation("acme/pilot", observed_at=observed_at, text_expires_at=observed_at + timedelta(days=1))
    if accepted:
        journal.write(shifted)
    else:
        with pytest.raises(JournalUnavailable, match="InsufficientPrivilege"):
            journal.write(shifted)
    assert len(rows(dsns)) == (2 if accepted else 0)


def test_expired_rows_are_hidden_at_once_and_physically_deleted_with_their_feedback(
    journal: Journal, dsns: JournalDsns
) -> None:
    inject_old(dsns, "acme/pilot", hits=3)
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        connection.execute(
            "INSERT INTO retrieval.citation_feedback (observation_id, hit_id, account_id, cited) "
            "SELECT observation_id, hit_id, account_id, true FROM retrieval.observation"
        )
    fresh = observation("acme/pilot")
    journal.write(fresh)

    assert [hit for _, hit in visible(journal, "acme/pilot")] == ["A", "B"]  # expired rows are invisible already
    with journal.transaction("acme/pilot") as cursor:
        cursor.execute("SELECT count(*) AS n FROM retrieval.citation_feedback")
        assert cursor.fetchone() == {"n": 0}  # and so is their feedback
    assert len(rows(dsns)) == 5  # but still stored until cleanup runs

    assert journal.expire() == 3
    assert [row[1] for row in rows(dsns)] == ["A", "B"]
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        assert connection.execute("SELECT count(*) FROM retrieval.citation_feedback").fetchone() == (0,)
        state = connection.execute(
            "SELECT last_success_at IS NOT NULL, last_deleted FROM retrieval.maintenance_state"
        ).fetchone()
    assert state == (True, 3)


def test_expired_texts_are_scrubbed_and_each_batch_is_bounded(journal: Journal, dsns: JournalDsns) -> None:
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        connection.execute(  # a row whose shorter text window has passed, though the row itself lives on
            """INSERT INTO retrieval.observation (observation_id, hit_id, account_id, observed_at, tool, search_mode,
                query_hash, query_text, text_expires_at, hit_kind, hit_rank, excerpt_truncated, returned_count,
                omitted_count, available_count)
            VALUES (gen_random_uuid(), 'A', 'acme/pilot', now() - interval '10 days', 'pack_search', 'hybrid',
                    sha256('q'), 'old question', now() - interval '1 day', 'entity', 1, false, 1, 0, 1)"""
        )
    inject_old(dsns, "globex/pilot", hits=5_003)

    assert journal.expire() == 5_000 + 1  # 5,000 rows deleted, one text scrubbed
    assert journal.expire() == 3
    assert journal.expire() == 0
    assert rows(dsns, "query_text IS NULL") and len(rows(dsns)) == 1


def test_the_monitor_sees_only_the_status_and_it_alarms_on_backlog_and_missing_runs(
    journal: Journal, dsns: JournalDsns
) -> None:
    assert maintenance.status(dsns.monitor).alarm  # no cleanup has succeeded yet
    journal.expire()
    healthy = maintenance.status(dsns.monitor)
    assert (healthy.alarm, healthy.expired_records, healthy.oldest_overdue_seconds) == (False, 0, 0.0)

    inject_old(dsns, "acme/pilot", hits=2)
    backlog = maintenance.status(dsns.monitor)
    assert backlog.alarm and backlog.expired_records == 2 and backlog.oldest_overdue_seconds >= 60

    journal.expire()
    with psycopg.connect(dsns.admin, autocommit=True) as connection:
        connection.execute("UPDATE retrieval.maintenance_state SET last_success_at = now() - interval '31 minutes'")
    assert maintenance.status(dsns.monitor).alarm  # two missed 15-minute runs

    with psycopg.connect(dsns.monitor, autocommit=True) as connection:
        for statement in (
            "SELECT * FROM retrieval.observation",
            "SELECT * FROM retrieval.citation_feedback",
            "SELECT * FROM retrieval.observation_export",
            "SELECT * FROM retrieval.maintenance_state",
            "SELECT retrieval.expire_observations()",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                connection.execute(statement)
    with pytest.raises(JournalUnavailable):  # and the runtime may not read the status
        maintenance.status(dsns.runtime)


@pytest.fixture
def unbound_runtime(dsns: JournalDsns, request: pytest.FixtureRequest) -> Iterator[JournalDsns]:
    """The runtime role made to bypass row-level security, one way or the other, and restored afterwards."""
    grant, revoke = request.param
    with admin("graphrag_observations") as connection:
        connection.execute(grant)
    try:
        yield dsns
    finally:
        with admin("graphrag_observations") as connection:
            connection.execute(revoke)


@pytest.mark.parametrize(
    "unbound_runtime",
    [
        (f"ALTER ROLE {RUNTIME} BYPASSRLS", f"ALTER ROLE {RUNTIME} NOBYPASSRLS"),
        (f"GRANT {OWNER} TO {RUNTIME}", f"REVOKE {OWNER} FROM {RUNTIME}"),
    ],
    indirect=True,
    ids=["BYPASSRLS", "member of the owner"],
)
def test_a_runtime_role_that_row_level_security_does_not_bind_is_refused(unbound_runtime: JournalDsns) -> None:
    with Journal(unbound_runtime.runtime) as journal:
        with pytest.raises(JournalUnavailable, match="not bound by row-level security"):
            journal.write(observation("acme/pilot"))
        with pytest.raises(JournalUnavailable, match="not bound by row-level security"):
            journal.export("acme/pilot")
    assert rows(unbound_runtime) == []
