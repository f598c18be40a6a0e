"""Settings read from the environment (and an optional ``.env``), named as the README's configuration table says.

Read once at an entry point (CLI command, server start) and passed down; nothing below
the entry points reads the environment itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEFAULT_EMBEDDER = "use-multilingual-v3"
MIN_BUDGET_BYTES = 2_000  # the smallest response budget; every error message fits it
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]
ObservationMode = Literal["off", "hash-only", "text"]
MEMORY_SIZE = r"^[1-9][0-9]*[mMgG]$"  # a JVM-style size: 512m, 4g
MAX_TEXT_DAYS = 90  # query text never outlives its observation (90 x 24 hours)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    graphrag_home: Path = Field(default=Path(".graphrag"), description="Local state: Neo4j, Qdrant.")
    neo4j_uri: str = "bolt://127.0.0.1:7687"
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr = SecretStr("graphrag-local")
    neo4j_database: str = "neo4j"
    neo4j_http_port: int = Field(default=7474, description="HTTP and Neo4j Browser port of the local server.")
    neo4j_heap_size: str = Field(
        default="1g",
        pattern=MEMORY_SIZE,
        description="The local server's JVM heap (`graphrag neo4j start`), e.g. 1g, 4g, 1536m.",
    )
    neo4j_pagecache_size: str = Field(
        default="512m",
        pattern=MEMORY_SIZE,
        description="The local server's page cache: the store files it keeps in memory.",
    )
    qdrant_url: str | None = Field(default=None, description="Unset: embedded Qdrant under GRAPHRAG_HOME.")
    qdrant_api_key: SecretStr | None = None
    qdrant_shards: int | None = Field(
        default=None, ge=1, description="A new server collection's shard count (unset: the server's default, 1)."
    )
    qdrant_replicas: int | None = Field(
        default=None, ge=1, description="A new server collection's copies of each shard, on a cluster (unset: 1)."
    )
    graphrag_embedder: str = DEFAULT_EMBEDDER
    graphrag_response_budget_bytes: int = Field(default=32_000, ge=MIN_BUDGET_BYTES)
    graphrag_search_config: Path | None = Field(
        default=None, description="A search configuration (JSON) to rank with; unset: the built-in default."
    )
    graphrag_query_expander: str | None = Field(
        default=None,
        description="package.module:factory of a language model that adds terms to a memory search's expansion.",
    )
    graphrag_tokens_file: Path | None = Field(
        default=None, description="Projects and bearer tokens for HTTP access (docs/memory.md)."
    )
    graphrag_log_level: LogLevel = Field(default="INFO", description="Level of the service's own log lines.")
    graphrag_log_format: Literal["text", "json"] = Field(default="text", description="json: one object per line.")
    graphrag_observations_dsn: SecretStr | None = Field(
        default=None, description="PostgreSQL of the observations journal, as its runtime role (docs/observations.md)."
    )
    graphrag_observations_mode: ObservationMode = Field(default="off", description="off, hash-only or text.")
    graphrag_observations_allowlist: Annotated[frozenset[str], NoDecode] = Field(
        default=frozenset(), description="Accounts (project/token-name, comma-separated) whose searches are recorded."
    )
    graphrag_observations_key: SecretStr | None = Field(
        default=None, description="Secret key of the keyed query hash; needed unless the mode is off."
    )
    graphrag_observations_text_days: int = Field(
        default=MAX_TEXT_DAYS, ge=1, le=MAX_TEXT_DAYS, description="Days a recorded query text is kept (text mode)."
    )
    graphrag_observations_monitor_dsn: SecretStr | None = Field(
        default=None, description="PostgreSQL as the monitor role, for `graphrag observations status`."
    )
    graphrag_export_token: SecretStr | None = Field(
        default=None, description="The bearer token of the account whose candidates `observations export` writes."
    )

    graphrag_call_timeout_seconds: float = Field(
        default=20.0,
        gt=0,
        description="A tool call's deadline: every Neo4j transaction it opens ends by then (answered `unavailable`).",
    )
    graphrag_http_header_timeout_seconds: float = Field(
        default=10.0, gt=0, description="HTTP: a request head must arrive whole within this, or the connection closes."
    )
    graphrag_http_keepalive_seconds: int = Field(
        default=5, ge=1, description="HTTP: an idle kept-alive connection is closed after this."
    )
    graphrag_http_max_connections: int = Field(
        default=256, ge=1, description="HTTP: a connection beyond this many open ones is answered 503 and closed."
    )

    github_api_url: str = Field(
        default="https://api.github.com", description="GitHub's REST API (a GitHub Enterprise or test double URL)."
    )
    github_app_id: str | None = Field(default=None, description="The GitHub App that reads team sources.")
    github_app_private_key: SecretStr | None = Field(default=None, description="The App's PEM private key.")
    github_webhook_secret: SecretStr | None = Field(
        default=None, description="The App's webhook secret: POST /github/webhook checks each delivery's signature."
    )

    @field_validator("graphrag_observations_allowlist", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        """``acme/ci-bot, acme/pilot`` -> the two accounts (blanks dropped)."""
        if isinstance(value, str):
            return frozenset(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("graphrag_log_level", "graphrag_log_format", mode="before")
    @classmethod
    def _any_case(cls, value: object, info: ValidationInfo) -> object:
        """``info`` and ``JSON`` are meant as ``INFO`` and ``json``."""
        if not isinstance(value, str):
            return value
        return value.upper() if info.field_name == "graphrag_log_level" else value.lower()

    @property
    def neo4j_home(self) -> Path:
        return self.graphrag_home / "neo4j"

    @property
    def qdrant_path(self) -> Path:
        """The embedded engine's folder (a Qdrant Edge shard); ``qdrant`` beside it is the former one's."""
        return self.graphrag_home / "qdrant-edge"


def settings_problems(exc: ValidationError) -> list[str]:
    """A bad setting as its variable's name and what is wrong, one line each; never the value (a password
    may be the one that is wrong)."""
    return [
        f"setting {'.'.join(str(part) for part in error['loc']).upper() or '?'}: {error['msg']}"
        for error in exc.errors(include_input=False, include_url=False)
    ]
