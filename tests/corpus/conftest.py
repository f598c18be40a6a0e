"""Corpus tests ask the real pack through the same in-process MCP client as the server tests."""

from tests.server.conftest import client_for  # noqa: F401
