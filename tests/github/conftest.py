"""The GitHub double on loopback, an App key pair, and the three accounts: write, read, no access."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from pydantic import SecretStr

from graphrag.config import Settings
from tests.github.double import APP_ID, DoubleServer, GitHubDouble

REPOSITORY = "acme/handbook"
WRITER, READER, STRANGER = "wanda", "reid", "nadia"


@pytest.fixture(scope="session")
def app_key() -> tuple[str, str]:
    """A fresh RSA key pair (private PEM, public PEM), as GitHub gives an App."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


@pytest.fixture
def github(app_key: tuple[str, str]) -> Iterator[GitHubDouble]:
    double = GitHubDouble(public_key=app_key[1], repositories={REPOSITORY})
    double.set_permission(REPOSITORY, WRITER, "write")
    double.set_permission(REPOSITORY, READER, "read")
    server = DoubleServer(double)
    yield double
    server.close()


@pytest.fixture
def github_settings(settings: Settings, github: GitHubDouble, app_key: tuple[str, str]) -> Settings:
    return settings.model_copy(
        update={
            "github_api_url": github.url,
            "github_app_id": APP_ID,
            "github_app_private_key": SecretStr(app_key[0]),
        }
    )
