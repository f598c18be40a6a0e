"""The ``graphrag`` command: a thin click shell over the library.

Subcommands load lazily, so ``graphrag ingest`` on an unchanged pack does not pay for
importing the MCP server or the evaluator, and ``graphrag --help`` imports none of them.
"""

from __future__ import annotations

import importlib
from typing import Any

import click
from pydantic import ValidationError

from graphrag.config import Settings, settings_problems

# name -> ("module:attribute" of a click command or group, one-line help for the listing)
COMMANDS: dict[str, tuple[str, str]] = {
    "neo4j": ("graphrag.cli.neo4j:neo4j", "Start, stop or inspect the local Neo4j server."),
    "check": ("graphrag.cli.packs:check_command", "Validate packs without writing anything."),
    "ingest": ("graphrag.cli.packs:ingest_command", "Ingest packs into Neo4j and Qdrant (only what changed)."),
    "watch": ("graphrag.cli.packs:watch_command", "Ingest packs again each time a file is saved."),
    "drop": ("graphrag.cli.drop:drop_command", "Remove a pack from the graph and the vectors, others untouched."),
    "vectors": ("graphrag.cli.vectors:vectors_group", "Copy the vectors between the local shard and a Qdrant server."),
    "explain": ("graphrag.cli.explain:explain_command", "Show how a question is read and why each hit ranks there."),
    "report": ("graphrag.cli.packs:report_command", "Review packs: counts, problems, a schema picture (HTML)."),
    "schema": ("graphrag.cli.schema:schema_command", "Print the live graph model (docs/analysts.md tables)."),
    "guide": ("graphrag.cli.guide:guide", "Serve Neo4j Browser's guide and style for a server elsewhere."),
    "serve": ("graphrag.cli.serve:serve", "Run the MCP server (stdio or streamable HTTP)."),
    "eval": ("graphrag.cli.evaluation:eval_group", "Offline retrieval evaluation: compare two arms."),
    "observations": (
        "graphrag.cli.observations:observations",
        "The opt-in journal of what search returned: schema, roles, cleanup, status, export.",
    ),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported only when one of them runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module_name, attribute = COMMANDS[cmd_name][0].split(":")
        command: Any = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        """A bad setting in the environment or ``.env`` is a bad invocation: one line per setting, exit 2."""
        try:
            return super().invoke(ctx)
        except ValidationError as exc:
            if exc.title != Settings.__name__:
                raise
            for line in settings_problems(exc):
                click.echo(f"error: {line}", err=True)
            ctx.exit(2)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, help_text) for name, (_, help_text) in COMMANDS.items()])


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


if __name__ == "__main__":
    main()
