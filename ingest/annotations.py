"""``graphrag check --format github``: a report as GitHub Actions workflow commands, so each problem shows
on the line of the pull request's file that causes it.

GitHub reads ``::error file=F,line=L,title=T::message`` from a step's output. Its escaping rules: in the
message ``%``, CR and LF become ``%25``, ``%0D`` and ``%0A``; in a property, ``:`` and ``,`` also become
``%3A`` and ``%2C`` (else a path holding a comma would end the property early).
"""

from __future__ import annotations

import os
from pathlib import Path

from ingest.report import IngestReport, Problem

TOOL = "graphrag check"


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, **properties: object) -> str:
    """One workflow command; properties whose value is None are left out."""
    listed = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items() if value is not None)
    return f"::{level} {listed}::{escape_data(message)}" if listed else f"::{level}::{escape_data(message)}"


def workflow_commands(report: IngestReport, cwd: Path | None = None) -> list[str]:
    """Errors as ``error``, warnings as ``warning``, dangling links as ``notice``; files relative to ``cwd``
    (the repository root when a workflow or pre-commit runs the check)."""
    roots = {pack.pack: Path(pack.root) for pack in report.packs}
    base = cwd or Path.cwd()

    def file(pack: str | None, path: str) -> str:
        root = roots.get(pack or "")
        if root is None:
            return path
        return os.path.relpath(root / path, base).replace(os.sep, "/")

    lines = [_problem(problem, file(problem.pack, problem.path)) for problem in [*report.errors, *report.warnings]]
    lines += [
        command(
            "notice",
            f"dangling link {link.source} -[{link.relation}]-> {link.target}: "
            + (f"no file defines {link.target}{link.why()}" if link.rejected_in is None else link.why()[2:]),
            file=file(link.pack, link.declared_in),
            title=f"{TOOL} {link.code}: dangling link",
        )
        for link in report.dangling
    ]
    return lines


def _problem(problem: Problem, file: str) -> str:
    title = f"{TOOL} {problem.code}" + (f" [{problem.field}]" if problem.field else "")
    return command(problem.severity, problem.message, file=file, line=problem.line, title=title)
