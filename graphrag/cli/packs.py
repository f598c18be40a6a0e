"""``graphrag check | ingest | watch``: thin click commands over ``ingest.pipeline``."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path

import click

from graphrag.cli.failing import connected, fail
from graphrag.config import Settings
from graphrag.errors import GraphRagError
from graphrag.logs import configure_logging
from graphrag.stores import answering
from graphrag.stores.graph import GraphStore
from ingest.annotations import command, workflow_commands
from ingest.packs import PackError
from ingest.phases import Progress
from ingest.pipeline import check, ingest
from ingest.report import IngestReport
from ingest.rules import unknown_selectors

PACKS = click.argument("packs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
JSON = click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
Codes = tuple[str, ...]
DANGLING_SHOWN = 10  # dangling links a text report lists before counting the rest (a real pack has hundreds)
ALL_DANGLING = click.option(
    "--dangling",
    "all_dangling",
    is_flag=True,
    help=f"List every dangling link (else the first {DANGLING_SHOWN} and a count of the rest).",
)


def _progress() -> Progress:
    """A one-line progress display on a terminal; silent when stderr is a file or a pipe."""
    if not sys.stderr.isatty():
        return lambda phase, done, total: None

    def show(phase: str, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        end = "\n" if done >= total else ""
        click.echo(f"\r{phase:>6} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}{end}", err=True, nl=False)

    return show


def render(report: IngestReport, all_dangling: bool = False) -> str:
    """The report for a person: errors first, then warnings, then dangling links (those with a near id first,
    likely typos; only the first ``DANGLING_SHOWN`` unless ``all_dangling``), and one summary line."""
    lines = []
    for pack in report.packs:
        lines.append(f"pack {pack.pack} ({pack.root}): {pack.files} files, {pack.entities} entities")
        if pack.skipped:
            lines.append(f"  skipped (no frontmatter): {', '.join(pack.skipped)}")
    read = {pack.pack for pack in report.packs}
    lines += [problem.render(problem.pack not in read) for problem in [*report.errors, *report.warnings]]
    dangling = sorted(report.dangling, key=lambda link: not link.nearest)
    shown = dangling if all_dangling else dangling[:DANGLING_SHOWN]
    lines += [f"dangling: {link.render()}" for link in shown]
    if len(shown) < len(dangling):
        lines.append(
            f"dangling: {len(dangling) - len(shown)} more links to ids no file defines; "
            "add --dangling to list them all (or --json)"
        )
    if report.reindexed:
        lines.append(f"re-index: {report.reindexed}")
    if not report.owners_checked:
        lines.append(
            "pack ids not checked against the graph (Neo4j not reachable): "
            "ingest refuses a pack id that another folder holds"
        )
    verb = "would add" if report.mode == "check" else "added"
    lines.append(
        f"{verb} {len(report.added)}, updated {len(report.updated)}, unchanged {report.unchanged}, "
        f"removed {len(report.removed)}; links {report.links}, dangling {len(report.dangling)}; "
        f"embedded {report.embedded}; errors {len(report.errors)}, warnings {len(report.warnings)}"
        f" ({report.timings.get('total', 0):.2f}s)"
    )
    return "\n".join(lines)


def _run(work: Callable[[], IngestReport], as_json: bool, all_dangling: bool) -> None:
    try:
        with answering():
            report = work()
    except (PackError, GraphRagError) as exc:
        fail(str(exc))
    else:
        click.echo(report.model_dump_json(indent=2) if as_json else render(report, all_dangling))
        sys.exit(report.exit_code)


@click.command("check")
@PACKS
@JSON
@ALL_DANGLING
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "github"]),
    default="text",
    show_default=True,
    help="github: GitHub Actions annotations (::error file=...,line=...::message), one per problem.",
)
@click.option("--select", "select", multiple=True, help="Only these rules (codes, or their first letters: L).")
@click.option("--ignore", "ignore", multiple=True, help="Not these rules (codes, or their first letters).")
def check_command(
    packs: tuple[Path, ...], as_json: bool, all_dangling: bool, output: str, select: Codes, ignore: Codes
) -> None:
    """Validate packs without writing anything (for authors and pre-commit hooks).

    When Neo4j answers, a pack whose id another folder holds there is refused, as ingest refuses it.
    Every problem names its rule's code (docs/rules.md); --select and --ignore take codes, each option
    repeated or comma-separated, and the exit status counts only the errors shown.
    Exit status: 0 all valid, 1 some files would be rejected, 2 bad invocation or such a pack.

    \b
    Example:
        graphrag check examples/space-missions
        graphrag check --ignore E009,L009 packs/notes
        graphrag check --format github packs/*     # in a GitHub Actions step
    """
    select, ignore = _codes(select), _codes(ignore)
    graph = _graph_if_reachable()
    try:
        if output == "github" and not as_json:
            try:
                with answering():
                    report = check(packs, graph).selected(select, ignore)
            except (PackError, GraphRagError) as exc:
                click.echo(command("error", str(exc), title="graphrag check"))
                sys.exit(2)
            for line in [*workflow_commands(report), render(report).splitlines()[-1]]:
                click.echo(line)
            sys.exit(report.exit_code)
        _run(lambda: check(packs, graph).selected(select, ignore), as_json, all_dangling)
    finally:
        if graph is not None:
            graph.close()


def _codes(given: Codes) -> tuple[str, ...]:
    """Rule codes as given (``--ignore E009,L009 --ignore F``), upper-cased; exit 2 naming one that no rule has."""
    codes = tuple(code.strip().upper() for option in given for code in option.split(",") if code.strip())
    if unknown := unknown_selectors(codes):
        fail(f"no rule has the code {', '.join(unknown)}; docs/rules.md lists them")
    return codes


def _graph_if_reachable() -> GraphStore | None:
    """The graph, read by ``check`` for which folder holds each pack id; None when it is not configured or
    not running (a check in CI or a pre-commit hook needs no store)."""
    try:
        return GraphStore.connect(Settings())
    except GraphRagError:
        return None


@click.command("ingest")
@PACKS
@JSON
@ALL_DANGLING
def ingest_command(packs: tuple[Path, ...], as_json: bool, all_dangling: bool) -> None:
    """Ingest packs into Neo4j and Qdrant, writing only what changed.

    Exit status: 0 everything ingested, 1 some files rejected (the rest ingested),
    2 bad invocation or a store that cannot be reached.

    \b
    Example:
        graphrag ingest examples/space-missions --json
    """
    settings = Settings()
    configure_logging(settings)
    if settings.graphrag_log_format == "text" and settings.graphrag_log_level != "DEBUG":
        # The report printed is the run's summary: its log line (kept in JSON logs, for machines) would repeat it.
        logging.getLogger("ingest.pipeline").setLevel(logging.WARNING)
    _run(lambda: ingest(packs, settings, _progress()), as_json, all_dangling)


@click.command("watch")
@PACKS
def watch_command(packs: tuple[Path, ...]) -> None:
    """Ingest packs, then again each time a markdown file or pack.yaml is saved (Ctrl-C stops).

    After the first report, each save prints only what it changed: errors new or fixed, links added or
    removed, dangling links new or resolved.

    \b
    Example:
        graphrag watch examples/space-missions
    """
    from graphrag.embedding import load_embedder
    from ingest.watching import PackWatcher

    settings = Settings()
    configure_logging(settings)
    graph = connected(settings)

    def first(report: IngestReport) -> None:
        click.echo(render(report))
        click.echo(f"watching {', '.join(map(str, packs))} (Ctrl-C stops)", err=True)

    try:
        embedder = load_embedder(settings.graphrag_embedder)
        watcher = PackWatcher(
            packs, graph, lambda saved: ingest(packs, settings, embedder=embedder, graph=graph, saved=saved)
        )
        with answering():  # a store that stops answering ends the watch: one line, exit 2
            watcher.run(
                first, lambda save: click.echo(save.render()), lambda exc: click.echo(f"error: {exc}", err=True)
            )
    except (PackError, GraphRagError) as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        pass
    finally:
        graph.close()


@click.command("report")
@PACKS
@click.option(
    "--html", "html_path", type=click.Path(dir_okay=False, writable=True, path_type=Path), help="Write the HTML here."
)
@JSON
def report_command(packs: tuple[Path, ...], html_path: Path | None, as_json: bool) -> None:
    """Review packs: counts per kind and relation, dangling links, orphans, duplicates, rejected files and the
    most connected entities; with --html, one self-contained page with a schema picture (opens offline).

    Reads the files alone (no store). Exit status: 0 clean, 1 some files rejected or ids duplicated, 2 bad invocation.

    \b
    Example:
        graphrag report examples/space-missions --html space-missions.html
    """
    from ingest.overview import overview
    from ingest.overview_html import render_html

    try:
        view = overview(packs)
        page = render_html(view) if html_path else None
    except (PackError, GraphRagError) as exc:
        fail(str(exc))
    if html_path and page is not None:
        html_path.write_text(page, encoding="utf-8")
    if as_json:
        click.echo(view.model_dump_json(indent=2))
    else:
        kinds = ", ".join(f"{kind} {n}" for kind, n in view.kinds.items())
        click.echo(f"{view.entities} entities ({kinds}); {view.links} links of {len(view.relations)} relation types")
        for problem in [*view.rejected, *view.links_left_out, *view.duplicate_ids]:
            click.echo(problem.render())
        click.echo(
            f"dangling {len(view.dangling)}, orphans {len(view.orphans)}, rejected files "
            f"{len({p.path for p in view.rejected})}, links left out {len(view.links_left_out)}, "
            f"duplicate ids {len(view.duplicate_ids)}, "
            f"shared titles {len(view.duplicate_titles)}" + (f"; wrote {html_path}" if html_path else "")
        )
    sys.exit(view.exit_code)
