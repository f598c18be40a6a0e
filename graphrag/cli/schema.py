"""``graphrag schema``: the live graph model as markdown tables and an SVG picture (docs/analysts.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from graphrag.config import Settings
from graphrag.errors import GraphRagError
from graphrag.stores import live_schema
from graphrag.stores.graph import GraphStore
from ingest.labels import service_labels


@click.command("schema")
@click.option(
    "--write",
    "document",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Replace the generated section of this markdown file, and write graph-model.svg beside it.",
)
def schema_command(document: Path | None) -> None:
    """Print the live graph's labels, relationship types, properties and indexes as markdown tables.

    \b
    Example:
        graphrag schema
        graphrag schema --write docs/analysts.md
    """
    try:
        with GraphStore.connect(Settings()) as graph:
            tables, svg = live_schema.read(graph, service_labels())
    except GraphRagError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if document is None:
        click.echo(tables, nl=False)
        return
    document.write_text(live_schema.splice(document.read_text(encoding="utf-8"), tables), encoding="utf-8")
    (document.parent / live_schema.PICTURE).write_text(svg, encoding="utf-8")
    click.echo(f"wrote {document} and {document.parent / live_schema.PICTURE}")
