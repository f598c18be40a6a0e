"""Documentation kept true by tests: every setting and every command is documented."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from graphrag.cli import COMMANDS, main
from graphrag.config import Settings

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(Settings.model_fields))
def test_every_setting_is_in_the_readme(name: str) -> None:
    assert name.upper() in README


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


@pytest.mark.parametrize(("name", "command"), leaf_commands(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_has_help_with_an_example(name: str, command: click.Command) -> None:
    assert command.help and "Example:" in command.help, f"`graphrag {name} --help` needs an Example"
    assert f"graphrag {name.split()[0]}" in README
