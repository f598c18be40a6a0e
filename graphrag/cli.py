"""The ``graphrag`` command: a thin click shell over the library.

Subcommand groups load lazily, so ``graphrag ingest`` on an unchanged pack does not pay
for importing the MCP server or the evaluator.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

# name -> "module:attribute" of a click command or group
COMMANDS: dict[str, str] = {
    "neo4j": "graphrag.neo4j_local.commands:neo4j",
    "check": "ingest.commands:check_command",
    "ingest": "ingest.commands:ingest_command",
    "watch": "ingest.commands:watch_command",
    "serve": "graphrag.server.commands:serve",
    "eval": "graphrag.evaluation.commands:eval_group",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported only when they run (or when help lists them)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        command: Any = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pack-graphrag")
def main() -> None:
    """Graph-first GraphRAG over markdown knowledge packs.

    \b
    Example:
        graphrag neo4j start
        graphrag ingest examples/space-missions
        graphrag serve
    """
