"""``graphrag eval``: a thin click shell over the evaluator library.

Exit codes are part of the contract: 0 candidate for review, 1 a gate failed, 2 malformed
input or invocation. Anything unexpected exits 3 so an evaluator bug is never read as a
decision about the candidate.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from pydantic import ValidationError

from graphrag.errors import GraphRagError, InvalidArgument
from graphrag.evaluation import canonical
from graphrag.evaluation.loading import ContractError, describe, load_input

if TYPE_CHECKING:
    from graphrag.evaluation.contract import Arm, Corpus

MALFORMED = 2
INTERNAL = 3
MAX_LISTED = 200

F = TypeVar("F", bound=Callable[..., Any])
existing_file = click.Path(exists=True, dir_okay=False, readable=True, path_type=Path)


def _fail(lines: list[str], code: int = MALFORMED) -> NoReturn:
    for line in lines[:MAX_LISTED]:
        click.echo(line, err=True)
    if len(lines) > MAX_LISTED:
        click.echo(f"... and {len(lines) - MAX_LISTED} more", err=True)
    sys.exit(code)


def _guarded(function: F) -> F:
    """Map library errors to exit 2 and anything unforeseen to exit 3."""

    @wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except ContractError as error:
            _fail(error.issues)
        except ValidationError as error:
            _fail(describe(error))
        except GraphRagError as error:
            _fail([str(error)])
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as error:  # an evaluator bug must not look like a gate failure
            _fail([f"internal error: {type(error).__name__}: {error}"], INTERNAL)

    return wrapper  # type: ignore[return-value]


@click.group(name="eval", context_settings={"help_option_names": ["-h", "--help"]})
def eval_group() -> None:
    """Offline retrieval evaluation of two recorded runs against a frozen labelled corpus.

    \b
    Example:
        graphrag eval schema > evaluation-input.schema.json
        graphrag eval compare /secure/experiment.json
    """


@eval_group.command()
def schema() -> None:
    """Print the JSON Schema of the versioned input contract (EvaluationInput).

    \b
    Example:
        graphrag eval schema > evaluation-input.schema.json
    """
    from graphrag.evaluation.contract import json_schema

    click.echo(canonical.dumps(json_schema()), nl=False)


@eval_group.command("search-config")
@click.option("--markdown", is_flag=True, help="A table of every setting with its meaning (docs/retrieval.md).")
def search_config(markdown: bool) -> None:
    """Print the default search configuration: a file to edit for GRAPHRAG_SEARCH_CONFIG or record --search-config.

    \b
    Example:
        graphrag eval search-config > tuned.json
        graphrag eval search-config --markdown
    """
    from graphrag.retrieval.config import DEFAULT, markdown_table

    click.echo(markdown_table(DEFAULT) if markdown else DEFAULT.model_dump_json(indent=2))


@eval_group.command()
@click.argument("file", type=existing_file)
@_guarded
def compare(file: Path) -> None:
    """Compare baseline and candidate on held-out queries; print the JSON report.

    Exits 0 candidate_for_review (ready for an independent decision, not a deployment
    permission), 1 insufficient_evidence / answer_barrier_failed / no_practical_gain,
    2 malformed input or invocation.

    \b
    Example:
        graphrag eval compare /secure/experiment.json > report.json; echo $?
    """
    from graphrag.evaluation.report import compare as run_compare

    _outcome, report = run_compare(load_input(file))
    click.echo(canonical.dumps(report), nl=False)
    sys.exit(report["exitCode"])


seed_option = click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=42,
    show_default=True,
    help="Seed of the A/B assignment and item order; use a private value and keep it with the key.",
)


@eval_group.command()
@click.argument("file", type=existing_file)
@seed_option
@_guarded
def annotate(file: Path, seed: int) -> None:
    """Print the blind labelling export of the development questions.

    Each item shows both generated answers, as A and B, with the context each was given;
    preference and raterId are null for annotators to fill in.

    \b
    Example:
        graphrag eval annotate --seed 90417 /secure/experiment.json > blind-labeling.json
    """
    from graphrag.evaluation.annotation import blind_export

    click.echo(canonical.dumps(blind_export(load_input(file), seed)), nl=False)


@eval_group.command("annotation-key")
@click.argument("file", type=existing_file)
@seed_option
@_guarded
def annotation_key(file: Path, seed: int) -> None:
    """Print the private key mapping each item's A/B to baseline/candidate.

    Keep it away from annotators and judges.

    \b
    Example:
        graphrag eval annotation-key --seed 90417 /secure/experiment.json > /secure/private-key.json
    """
    from graphrag.evaluation.annotation import decoding_key

    click.echo(canonical.dumps(decoding_key(load_input(file), seed)), nl=False)


@eval_group.command("import-labels")
@click.argument("experiment", type=existing_file)
@click.argument("labels", type=existing_file)
@click.argument("key", type=existing_file)
@_guarded
def import_labels(experiment: Path, labels: Path, key: Path) -> None:
    """Merge filled blind labels into the experiment as human ratings; print the new input.

    Preferences A/B are decoded with the key to baseline/candidate (tie stays tie).

    \b
    Example:
        graphrag eval import-labels /secure/experiment.json labeled.json /secure/private-key.json \\
            > /secure/experiment-labeled.json
    """
    import json

    from graphrag.evaluation.annotation import KeyFile, LabelFile
    from graphrag.evaluation.annotation import import_labels as merge

    label_file = LabelFile.model_validate_json(labels.read_bytes())
    key_file = KeyFile.model_validate_json(key.read_bytes())
    merged, added = merge(load_input(experiment), label_file, key_file)
    data = json.loads(merged.model_dump_json(by_alias=True, exclude_none=True))
    # not canonical.dumps: the experiment's own numbers must round-trip unrounded
    click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    click.echo(f"imported {added} label(s)", err=True)


@eval_group.command()
@click.argument("queries", type=existing_file)
@click.option("--config", "config_file", type=existing_file, required=True, help="The arm's config (JSON, camelCase).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="Where the arm goes.")
@click.option("--corpus-out", type=click.Path(dir_okay=False, path_type=Path), help="Also write the hits' sources.")
@click.option("--label", default="candidate", show_default=True, help="The arm's label.")
@click.option("--limit", default=10, show_default=True, help="Hits per query (pack_search's limit).")
@click.option("--pack", "packs", multiple=True, help="Only these packs (repeatable).")
@click.option("--kind", "kinds", multiple=True, help="Only these kinds (repeatable).")
@click.option(
    "--mode",
    type=click.Choice(["hybrid", "vector", "text"]),
    help="pack_search's retrieval mode; recorded as config reranker.retrievalMode. Default: the tool's own.",
)
@click.option(
    "--search-config",
    "search_configs",
    multiple=True,
    help="Rank with this search configuration: a recipe (default, no-walks, no-chain, no-vector) or a JSON file "
    "as GRAPHRAG_SEARCH_CONFIG; repeat it for an arm each. Recorded as reranker.searchConfig.",
)
@click.option(
    "--through",
    type=click.Choice(["process", "mcp"]),
    default="process",
    show_default=True,
    help="process: rank in process, every configuration over one load of the stores; mcp: through the "
    "pack_search tool (its response budget and visibility), one configuration.",
)
@_guarded
def record(
    queries: Path,
    config_file: Path,
    out: Path,
    corpus_out: Path | None,
    label: str,
    limit: int,
    packs: tuple[str, ...],
    kinds: tuple[str, ...],
    mode: str | None,
    search_configs: tuple[str, ...],
    through: str,
) -> None:
    """Rank QUERIES as this service's pack_search does and write the ranked hits as an arm.

    QUERIES is a JSON list of {"queryId", "text"} (or a file with a "queries" list, such as an
    experiment). The embedder's id is added to the config's models, --mode to its reranker section as
    retrievalMode, and each --search-config as searchConfig (the configuration's digest), so arms can
    differ in those keys alone. With several --search-config, all rank in one pass over one load of the
    stores and --out is a folder: NAME.json and NAME-corpus.json for each (NAME: the recipe, or the
    file's name). Answers are left empty: fill them from your generation step before `compare`. Needs
    Neo4j and ingested packs.

    \b
    Example:
        graphrag eval record queries.json --config baseline-config.json --out baseline.json
        graphrag eval record queries.json --config baseline-config.json --out text.json --mode text
        graphrag eval record q.json --config base.json --out arms/ --search-config default --search-config no-walks
    """
    import asyncio

    from graphrag.config import Settings
    from graphrag.evaluation.recording import RETRIEVAL_MODE_KEY, QueryFile, with_reranker
    from graphrag.retrieval.config import named_config
    from graphrag.server.recording import record_arm, record_arms

    raw = json.loads(queries.read_text(encoding="utf-8"))
    query_file = QueryFile.model_validate({"queries": raw} if isinstance(raw, list) else raw)
    config = json.loads(config_file.read_text(encoding="utf-8"))
    search: dict[str, Any] = {"limit": limit, "packs": list(packs) or None, "kinds": list(kinds) or None}
    if mode is not None:  # unset, the tool's default applies and the config says nothing about it
        search["mode"] = mode
        config = with_reranker(config, RETRIEVAL_MODE_KEY, mode)
    configs = dict(named_config(spec) for spec in search_configs or ("default",))
    if len(configs) < len(search_configs or ("default",)):
        raise InvalidArgument("two --search-config have the same name: give each arm its own")
    several = len(configs) > 1
    if several and (through == "mcp" or corpus_out is not None):
        raise InvalidArgument("several --search-config record in process, each arm with its corpus beside it in --out")
    paths = _arm_paths(list(configs), out, corpus_out, several)
    if through == "mcp":
        ((name, ranking),) = configs.items()
        arms = {name: asyncio.run(record_arm(Settings(), query_file.queries, ranking, config, label, search))}
    else:
        arms = record_arms(Settings(), query_file.queries, configs, config, label, search)
    for name, recorded in arms.items():
        _save(*recorded, *paths[name])


def _arm_paths(
    names: list[str], out: Path, corpus_out: Path | None, several: bool
) -> dict[str, tuple[Path, Path | None]]:
    """Where each arm and its sources go, the folders made now: a missing one must not cost the recording."""
    paths = {
        name: (out / f"{name}.json", out / f"{name}-corpus.json") if several else (out, corpus_out) for name in names
    }
    for folder in {p.parent for pair in paths.values() for p in pair if p is not None}:
        folder.mkdir(parents=True, exist_ok=True)
    return paths


def _save(arm: Arm, corpus: Corpus, arm_path: Path, corpus_path: Path | None) -> None:
    arm_path.write_text(arm.model_dump_json(indent=2) + "\n", encoding="utf-8")
    if corpus_path is not None:
        corpus_path.write_text(corpus.model_dump_json(indent=2) + "\n", encoding="utf-8")
    click.echo(f"recorded {len(arm.runs)} queries into {arm_path} (snapshot {arm.corpus_snapshot_id})", err=True)
