"""The journal's pure rules: SQL files with honest headers, an immutable migration, the text filter, the keyed
fingerprint, version-7 ids and who is admitted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphrag.observations.admission import expired, fingerprint, issued_at, uuid7
from graphrag.observations.sql import MIGRATIONS, SqlFile, all_queries, migration
from graphrag.observations.textfilter import storable
from tests.observations.conftest import policy

pytestmark = pytest.mark.fast

APPLIED = {"001-retrieval-observations": "5ebea0d8639924c141a98a45cad736ffb5993ac412098341ea79d197d10c86a5"}


@pytest.mark.parametrize("statement", all_queries(), ids=lambda q: q.name)
def test_every_sql_file_says_what_it_does_and_names_every_parameter(statement: SqlFile) -> None:
    assert "Parameters:" in statement.header, f"sql/{statement.name}.sql: the header must list its parameters"
    assert statement.documented_parameters == statement.parameters


def test_applied_migrations_never_change() -> None:
    """An applied migration is immutable: change the schema with a new file, never by editing one."""
    assert {name: migration(name).sha256 for name in MIGRATIONS} == APPLIED


@pytest.mark.parametrize(
    "text",
    [
        "Apollo 11 landing site",
        "Какие миссии летали к Луне?",
        "Saturn V first stage engines 1967-1973",
        "DP.SOTA.004 depends on what?",
    ],
)
def test_ordinary_questions_pass_the_filter(text: str) -> None:
    assert storable(text)


@pytest.mark.parametrize(
    "text",
    [
        "mail ann.lee@example.org about apollo",
        "call +1 (555) 123-4567",
        "card 4111 1111 1111 1111",
        "IBAN DE89 3704 0044 0532 0130 00",
        "https://user:pw@host/x",
        "see https://example.org/page?session=abc",
        "server 192.168.10.4 down",
        "token ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "eyJhbGciOiJIUzI1NiJ9.payload",
        "AKIAIOSFODNN7EXAMPLE",
        "password: hunter2",
        "мой пароль = qwerty",
        "-----BEGIN PRIVATE KEY-----",
        "bell\x07 character",
        "x" * 501,
        "   ",
    ],
)
def test_credentials_personal_data_and_long_text_do_not(text: str) -> None:
    assert not storable(text)


def test_the_fingerprint_is_keyed_and_ignores_case_width_and_spacing() -> None:
    key = b"k" * 40
    assert (
        fingerprint(key, "Apollo  LANDING")
        == fingerprint(key, " apollo landing ")
        == fingerprint(key, "ＡＰＯＬＬＯ landing")
    )
    assert fingerprint(key, "apollo landing") != fingerprint(b"j" * 40, "apollo landing")
    assert len(fingerprint(key, "x")) == 32


def test_version_7_ids_carry_their_time_and_say_when_they_expire() -> None:
    at = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
    made = uuid7(at)
    assert (made.version, made.variant) == (7, "specified in RFC 4122")
    assert issued_at(made) == at and uuid7(at) != made
    assert not expired(uuid7(datetime.now(UTC) - timedelta(days=89)))
    assert expired(uuid7(datetime.now(UTC) - timedelta(days=90, minutes=1)))


def test_only_allowlisted_accounts_are_admitted_and_only_text_mode_keeps_text() -> None:
    assert policy("off").admit("acme/pilot", "apollo") is None
    assert policy().admit(None, "apollo") is None
    assert policy().admit("acme/other", "apollo") is None
    assert policy().admit("acme/pilot", "password: hunter2") is None  # text mode: refused text, no record at all
    text = policy().admit("acme/pilot", "  apollo   landing ")
    assert text is not None and text.query_text == "apollo landing" and text.text_expires_at is not None
    assert text.text_expires_at - text.observed_at == timedelta(days=30)
    hashed = policy("hash-only").admit("acme/pilot", "password: hunter2")
    assert hashed is not None and (hashed.query_text, hashed.text_expires_at) == (None, None)
