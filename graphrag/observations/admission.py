"""Who and what is recorded: the mode, the pilot allowlist, the text filter and the keyed query hash.

Only a verified account on the allowlist is recorded, and only while the mode is not ``off``. The account
comes from the caller's verified bearer token alone (the server's adapter passes it in); stdio and anonymous
calls have none. The query is kept as a keyed hash (HMAC-SHA256 of its normalised text), so equal queries
share a fingerprint that nobody without the key can recompute; in ``text`` mode the text itself is kept too,
for ``GRAPHRAG_OBSERVATIONS_TEXT_DAYS`` at most, when it passes the filter; a query that does not pass is not
recorded at all in text mode.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import time
import unicodedata
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from graphrag.config import ObservationMode, Settings
from graphrag.errors import InvalidArgument
from graphrag.observations.textfilter import storable

LIFETIME = timedelta(hours=90 * 24)  # of every observation, from observed_at; nothing restarts it
MIN_KEY_CHARS = 32


@dataclass(frozen=True)
class Admission:
    """A search to be recorded: its id (handed to the caller at once), account, time and query."""

    observation_id: uuid.UUID
    account: str
    observed_at: datetime
    query_hash: bytes
    query_text: str | None
    text_expires_at: datetime | None


@dataclass(frozen=True)
class ObservationPolicy:
    mode: ObservationMode
    allowlist: frozenset[str]
    key: bytes
    text_days: int

    @classmethod
    def from_settings(cls, settings: Settings) -> ObservationPolicy | None:
        """None without a journal (no DSN). A mode other than ``off`` needs a DSN and a long enough key."""
        mode = settings.graphrag_observations_mode
        dsn = settings.graphrag_observations_dsn
        if dsn is None:
            if mode != "off":
                raise InvalidArgument(f"GRAPHRAG_OBSERVATIONS_MODE={mode} needs GRAPHRAG_OBSERVATIONS_DSN")
            return None
        key = settings.graphrag_observations_key.get_secret_value() if settings.graphrag_observations_key else ""
        if mode != "off" and len(key) < MIN_KEY_CHARS:
            raise InvalidArgument(
                f"GRAPHRAG_OBSERVATIONS_MODE={mode} needs GRAPHRAG_OBSERVATIONS_KEY of at least {MIN_KEY_CHARS} "
                "characters (a long random secret)"
            )
        return cls(
            mode, settings.graphrag_observations_allowlist, key.encode(), settings.graphrag_observations_text_days
        )

    def admit(self, account: str | None, query: str) -> Admission | None:
        """The admission of one search, or None when it must not be recorded."""
        if self.mode == "off" or account is None or account not in self.allowlist:
            return None
        text = " ".join(query.split())
        if self.mode == "text" and not storable(text):
            return None
        observed_at = datetime.now(UTC)
        return Admission(
            observation_id=uuid7(observed_at),
            account=account,
            observed_at=observed_at,
            query_hash=fingerprint(self.key, query),
            query_text=text if self.mode == "text" else None,
            text_expires_at=observed_at + timedelta(days=self.text_days) if self.mode == "text" else None,
        )


def fingerprint(key: bytes, query: str) -> bytes:
    """HMAC-SHA256 of the query as a person means it: Unicode-normalised, case-folded, spaces collapsed."""
    normal = " ".join(unicodedata.normalize("NFKC", query).casefold().split())
    return hmac.new(key, normal.encode(), hashlib.sha256).digest()


def uuid7(at: datetime) -> uuid.UUID:
    """A time-ordered UUID (RFC 9562 version 7): 48 bits of milliseconds, then random bits."""
    millis = int(at.timestamp() * 1000) & ((1 << 48) - 1)
    random = int.from_bytes(os.urandom(10), "big")
    value = (millis << 80) | (0x7 << 76) | ((random >> 62) & 0xFFF) << 64 | (0b10 << 62) | (random & ((1 << 62) - 1))
    return uuid.UUID(int=value)


def issued_at(observation_id: uuid.UUID) -> datetime | None:
    """When a version-7 id was made (its first 48 bits), or None for another kind of UUID."""
    if observation_id.version != 7:
        return None
    return datetime.fromtimestamp((observation_id.int >> 80) / 1000, UTC)


def expired(observation_id: uuid.UUID, now: float | None = None) -> bool:
    """Whether the observation an id names is past its lifetime, whether or not cleanup has removed it."""
    made = issued_at(observation_id)
    current = datetime.fromtimestamp(time.time() if now is None else now, UTC)
    return made is not None and made + LIFETIME <= current
