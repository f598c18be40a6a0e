"""Documentation kept true by tests: every setting and every command is documented."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
import yaml

from graphrag.cli import COMMANDS, main
from graphrag.config import Settings
from graphrag.retrieval.config import DEFAULT, markdown_table
from ingest import limits, rules

pytestmark = pytest.mark.fast

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(Settings.model_fields))
def test_every_setting_is_in_the_readme(name: str) -> None:
    assert name.upper() in README


def test_every_pack_limit_is_in_the_readme() -> None:
    names = [name for name in vars(limits) if name.isupper()]
    assert names and [name for name in names if f"`{name}`" not in README] == []


def leaf_commands() -> list[tuple[str, click.Command]]:
    ctx = click.Context(main)
    found = []
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            found += [(f"{name} {sub}", command.commands[sub]) for sub in command.commands]
        else:
            found.append((name, command))
    return found


def command_table() -> dict[str, set[str]]:
    """README's command table: ``graphrag eval schema \\| compare`` -> ``{"eval": {"schema", "compare"}}``."""
    rows = re.findall(r"^\| `graphrag ([^`]+)` \|", README, flags=re.MULTILINE)
    table: dict[str, set[str]] = {}
    for row in rows:
        command, _, rest = row.partition(" ")
        table.setdefault(command, set()).update(re.split(r"[\s\\|]+", rest))
    return table


@pytest.mark.parametrize(("name", "command"), leaf_commands(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_has_help_with_an_example(name: str, command: click.Command) -> None:
    assert command.help and "Example:" in command.help, f"`graphrag {name} --help` needs an Example"


@pytest.mark.parametrize("name", [name for name, _ in leaf_commands()])
def test_every_command_has_a_row_in_the_readme_table(name: str) -> None:
    """A group's row lists each subcommand (`graphrag eval schema \\| compare \\| record ...`)."""
    group, _, sub = name.partition(" ")
    table = command_table()
    assert group in table, f"README's command table has no row for `graphrag {group}`"
    assert not sub or sub in table[group], f"README's row for `graphrag {group}` does not list `{sub}`"


def test_shared_deployments_use_a_tokens_file() -> None:
    """What listens beyond loopback needs tokens: the compose service, the image, and the docs' example."""
    service = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))["services"]["graphrag"]
    assert service["environment"]["GRAPHRAG_TOKENS_FILE"] == f"/run/secrets/{service['secrets'][0]}"
    assert "GRAPHRAG_TOKENS_FILE=/run/secrets/graphrag-tokens" in (ROOT / "Dockerfile").read_text(encoding="utf-8")
    public = [
        line
        for line in (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8").splitlines()
        if "graphrag serve" in line and "--host 0.0.0.0" in line
    ]
    assert public and all("GRAPHRAG_TOKENS_FILE=" in line for line in public)


def test_the_search_configuration_table_is_the_defaults_own() -> None:
    """docs/retrieval.md shows the default search configuration as the code renders it, never by hand."""
    text = (ROOT / "docs" / "retrieval.md").read_text(encoding="utf-8")
    shown = text.split("<!-- search-config:start -->\n", 1)[1].split("\n<!-- search-config:end -->", 1)[0]
    assert shown == markdown_table(DEFAULT)


def test_the_rules_table_is_the_registrys_own() -> None:
    """docs/rules.md lists every rule as ingest/rules.py holds it."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    shown = text.split("<!-- rules:start -->\n", 1)[1].split("\n<!-- rules:end -->", 1)[0]
    assert shown == rules.markdown_table()
