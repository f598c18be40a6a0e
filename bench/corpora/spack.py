"""Spack's package recipes as a pack: one entity per package, typed links read from its directives.

A corpus nobody on the team wrote, with ordinary-word ids (``file``, ``gmake``, ``python``) that a text
index cannot take for granted. The recipes are Python, but they are parsed with ``ast`` and never run:
they import Spack and would execute arbitrary code.

Example:
    python -m bench.corpora.spack spack-packages/ spack-pack/
"""

from __future__ import annotations

import argparse
import ast
import keyword
import re
import string
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

PACKAGES = Path("repos/spack_repo/builtin/packages")
RELATIONS = {
    "depends_on": "Needed at link or run time (a depends_on whose type includes link or run, or has none).",
    "build_depends_on": "Needed only to build the package (depends_on type build).",
    "test_depends_on": "Needed only to test the package (depends_on type test).",
    "extends": "The package is an extension of the target (extends), e.g. a Python module of python.",
    "provides": "The package provides the target virtual package (provides), e.g. mpi or blas.",
    "conflicts_with": "A conflicts directive names the target package, e.g. ^openssl@3.",
}
DEFAULT_TYPES = frozenset({"build", "link"})  # Spack's deptype when a depends_on gives none
NAME = re.compile(r"\s*([A-Za-z0-9_][A-Za-z0-9_-]*)(?=$|[\s@+~%^])")
CARET = re.compile(r"\^\s*(?:\[[^\]]*\]\s*)?([A-Za-z0-9_][A-Za-z0-9_-]*)(?=$|[\s@+~%^])")
SENTENCE = re.compile(r"(.+?[.!?])(?=\s+[A-Z0-9\"'(\[]|$)")
IMPORTED = re.compile(r"spack_repo\.builtin\.packages\.\w+\.package")
PLACEHOLDER = re.compile(r"FIXME|Put a proper description of your package here", re.IGNORECASE)
Links = dict[str, dict[str, list[str]]]  # package -> relation -> targets
Constants = Callable[[str, str], ast.expr | None]  # (class, attribute) -> the value assigned in that class


@dataclass
class Recipe:
    """What one package.py says, as far as the pack needs it."""

    name: str
    docstring: str
    homepage: str | None = None
    virtual: bool = False
    dependencies: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    extends: set[str] = field(default_factory=set)
    provides: set[str] = field(default_factory=set)
    conflicts: set[str] = field(default_factory=set)
    variants: dict[str, str] = field(default_factory=dict)


@dataclass
class Tally:
    """Directives the parser could not read, so the report says what the pack leaves out."""

    unreadable_specs: Counter[str] = field(default_factory=Counter)
    unreadable_types: int = 0
    skipped: Counter[str] = field(default_factory=Counter)


def package_name(directory: str) -> str:
    """Spack's own mapping back from a module folder: ``_7zip`` is 7zip, ``_pass`` is pass, ``py_numpy`` py-numpy."""
    if directory.startswith("_") and (directory[1:2].isdigit() or keyword.iskeyword(directory[1:])):
        directory = directory[1:]
    return directory.replace("_", "-")


def class_name(name: str) -> str:
    """Spack's module-to-class rule, to pick the package class among helper classes in one file."""
    words = string.capwords(re.sub(r"[-_]+", "-", name), "-").replace("-", "")
    return f"_{words}" if words[:1].isdigit() else words


def spec_text(node: ast.expr | None, constant: Constants) -> str | None:
    """A spec string, or its literal head when the rest is computed.

    ``f"geant4 cxxstd={v}"``, ``"qt-base@" + v`` and ``"kokkos {0}".format(d)`` still name their package;
    ``Boost.with_default_variants`` is looked up in the class that defines it.
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        return spec_text(node.values[0], constant)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        head = spec_text(node.left, constant)
        return head.split("%")[0] if head is not None and isinstance(node.op, ast.Mod) else head
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        head = spec_text(node.func.value, constant)
        return head.split("{")[0] if head is not None else None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return spec_text(constant(node.value.id, node.attr), constant)
    return None


def spec_name(spec: str) -> str | None:
    """The package a spec starts with; ``+shared`` or ``cuda_arch=none`` name none."""
    match = NAME.match(spec)
    return match.group(1) if match else None


def literal_strings(node: ast.expr) -> set[str] | None:
    """A dependency type: ``"build"`` or ``("build", "run")``; None when computed."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List) else [node]
    values = {item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)}
    return values if len(values) == len(items) else None


def keywords(call: ast.Call) -> dict[str, ast.expr]:
    return {k.arg: k.value for k in call.keywords if k.arg is not None}


def directives(
    body: Sequence[ast.stmt], defaults: dict[str, ast.expr]
) -> Iterator[tuple[ast.Call, dict[str, ast.expr]]]:
    """Every directive call of a class body with the keywords it gets, inside with/for/if blocks too.

    ``with default_args(type="build"):`` gives its keywords to the calls inside; method bodies hold no
    directives and are not entered.
    """
    for statement in body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            yield statement.value, {**defaults, **keywords(statement.value)}
        elif isinstance(statement, ast.With):
            inner = dict(defaults)
            for item in statement.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "default_args":
                    inner.update(keywords(call))
            yield from directives(statement.body, inner)
        elif isinstance(statement, ast.For | ast.If):
            yield from directives(statement.body, defaults)
            yield from directives(statement.orelse, defaults)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody, *(h.body for h in statement.handlers)):
                yield from directives(block, defaults)


class Recipes:
    """Each package.py parsed once, to follow a package class to base classes in its own or another recipe."""

    def __init__(self, packages: Path) -> None:
        self.packages = packages
        self.trees: dict[str, ast.Module | None] = {}

    def tree(self, folder: str) -> ast.Module | None:
        if folder not in self.trees:
            try:
                self.trees[folder] = ast.parse((self.packages / folder / "package.py").read_text(encoding="utf-8"))
            except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
                self.trees[folder] = None
        return self.trees[folder]

    def find_class(self, folder: str, name: str) -> tuple[str, ast.ClassDef] | None:
        """The class a name means in a recipe: defined there, or imported from another recipe."""
        tree = self.tree(folder)
        for node in tree.body if tree else []:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return folder, node
            if isinstance(node, ast.ImportFrom) and node.module and IMPORTED.fullmatch(node.module):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        return self.find_class(node.module.split(".")[-2], alias.name)
        return None

    def lineage(self, folder: str, package: ast.ClassDef, seen: set[str]) -> Iterator[tuple[str, ast.ClassDef]]:
        """Base classes from recipes first, then the class: directives are inherited."""
        seen.add(f"{folder}.{package.name}")
        for base in package.bases:
            found = self.find_class(folder, base.id) if isinstance(base, ast.Name) else None
            if found and f"{found[0]}.{found[1].name}" not in seen:
                yield from self.lineage(*found, seen)
        yield folder, package

    def constant(self, folder: str) -> Constants:
        """Looks up ``Class.attribute`` from a recipe, for specs kept in class attributes."""

        def look_up(class_: str, attribute: str) -> ast.expr | None:
            found = self.find_class(folder, class_)
            for statement in found[1].body if found else []:
                if isinstance(statement, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == attribute for t in statement.targets
                ):
                    return statement.value
            return None

        return look_up

    def read(self, folder: str, tally: Tally) -> Recipe | None:
        """The package class's docstring, homepage, variants and links; None without a real docstring."""
        tree = self.tree(folder)
        if tree is None:
            tally.skipped["unparsable"] += 1
            return None
        name = package_name(folder)
        classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
        package = next((c for c in classes if c.name == class_name(name)), None)
        docstring = (ast.get_docstring(package) or "").strip() if package else ""
        if package is None or not docstring:
            tally.skipped["no docstring"] += 1
            return None
        if PLACEHOLDER.search(docstring):
            tally.skipped["placeholder docstring"] += 1
            return None
        recipe = Recipe(name, docstring)
        for owner, cls in self.lineage(folder, package, set()):
            for statement in cls.body:
                if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant):
                    for target in statement.targets:
                        if isinstance(target, ast.Name) and target.id == "homepage" and statement.value.value:
                            recipe.homepage = str(statement.value.value).strip()
                        elif isinstance(target, ast.Name) and target.id == "virtual" and cls is package:
                            recipe.virtual = statement.value.value is True
            for call, kwargs in directives(cls.body, {}):
                if isinstance(call.func, ast.Name):
                    read_directive(recipe, call.func.id, call, kwargs, self.constant(owner), tally)
        return recipe


def read_directive(
    recipe: Recipe, directive: str, call: ast.Call, kwargs: dict[str, ast.expr], constant: Constants, tally: Tally
) -> None:
    if directive in ("depends_on", "extends", "provides", "conflicts"):
        for argument in call.args if directive == "provides" else call.args[:1]:
            spec = spec_text(argument, constant)
            if spec is None:
                tally.unreadable_specs[directive] += 1
                continue
            if directive == "conflicts":  # its head and every ^dependency; %compiler and variants name none
                recipe.conflicts |= {m.group(1) for m in CARET.finditer(spec)}
                if head := spec_name(spec):
                    recipe.conflicts.add(head)
                continue
            target = spec_name(spec)
            if target is None:
                tally.unreadable_specs[directive] += 1
            elif directive == "depends_on":
                types = literal_strings(kwargs["type"]) if "type" in kwargs else DEFAULT_TYPES
                if types is None:
                    tally.unreadable_types += 1
                recipe.dependencies[target] |= types or DEFAULT_TYPES
            elif directive == "extends":
                recipe.extends.add(target)
            else:
                recipe.provides.add(target)
    elif directive == "variant" and call.args:
        name = call.args[0]
        variant = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None
        described = kwargs.get("description", call.args[2] if len(call.args) > 2 else None)
        text = described.value if isinstance(described, ast.Constant) and isinstance(described.value, str) else ""
        if variant and (variant not in recipe.variants or not recipe.variants[variant]):
            recipe.variants[variant] = " ".join(text.split())


def dependency_relation(types: set[str]) -> str:
    """Spack's deptypes folded into one link: link or run wins over build, build over test."""
    if types & {"link", "run"}:
        return "depends_on"
    return "build_depends_on" if "build" in types else "test_depends_on"


def first_sentence(docstring: str) -> str:
    paragraph = " ".join(docstring.split("\n\n")[0].split())
    match = SENTENCE.match(paragraph)
    return match.group(1) if match else paragraph


def links(recipe: Recipe) -> dict[str, set[str]]:
    related: dict[str, set[str]] = defaultdict(set)
    for target, types in recipe.dependencies.items():
        related[dependency_relation(types)].add(target)
    related["extends"] |= recipe.extends
    related["provides"] |= recipe.provides
    related["conflicts_with"] |= recipe.conflicts
    return related


def markdown(frontmatter: dict[str, Any], body: str) -> str:
    header = yaml.safe_dump(frontmatter, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{header}---\n\n{body.rstrip()}\n"


def package_body(recipe: Recipe, providers: list[str]) -> str:
    parts = [f"# {recipe.name}", recipe.docstring]
    if recipe.virtual:
        parts.append("## Providers\n\n" + "\n".join(f"- {p}" for p in providers))
    if recipe.variants:
        lines = [f"- {name}: {text}" if text else f"- {name}" for name, text in recipe.variants.items()]
        parts.append("## Variants\n\n" + "\n".join(lines))
    if recipe.homepage:
        parts.append(f"Homepage: {recipe.homepage}")
    return "\n\n".join(parts)


def read_recipes(packages: Path, tally: Tally) -> tuple[dict[str, Recipe], set[str]]:
    """Readable recipes by name, and the names of every recipe folder (written or skipped)."""
    reader = Recipes(packages)
    folders = sorted(path.parent.name for path in packages.glob("*/package.py"))
    recipes = {recipe.name: recipe for folder in folders if (recipe := reader.read(folder, tally))}
    return recipes, {package_name(folder) for folder in folders}


def kept_links(recipes: dict[str, Recipe], known: set[str], folders: set[str]) -> tuple[Links, Counter[str]]:
    """Each package's links to known names, sorted; links to names without an entity are counted."""
    related: Links = {}
    dropped: Counter[str] = Counter()
    for name, recipe in recipes.items():
        related[name] = {}
        for relation, targets in sorted(links(recipe).items()):
            if relation == "conflicts_with":  # a conflict naming no package is a variant or target, not a link
                targets = targets & known
            for target in targets - known - {name}:
                dropped["to a recipe without docstring" if target in folders else "to no recipe"] += 1
            if kept := sorted(targets & known - {name}):
                related[name][relation] = kept
    return related, dropped


def build(source: Path, out: Path) -> None:
    packages = source / PACKAGES if (source / PACKAGES).is_dir() else source
    tally = Tally()
    recipes, folders = read_recipes(packages, tally)
    virtuals = {v for r in recipes.values() for v in r.provides} - folders  # interfaces with no recipe of their own
    related, dropped = kept_links(recipes, set(recipes) | virtuals, folders)
    providers: dict[str, list[str]] = defaultdict(list)
    for name in recipes:
        for virtual in related[name].get("provides", []):
            providers[virtual].append(name)
    out.mkdir(parents=True, exist_ok=True)
    for name, recipe in recipes.items():
        frontmatter: dict[str, Any] = {
            "id": name,
            "kind": "virtual" if recipe.virtual else "package",
            "title": name,
            "summary": first_sentence(recipe.docstring),
        }
        if recipe.homepage:
            frontmatter["homepage"] = recipe.homepage
        if related[name]:
            frontmatter["related"] = related[name]
        (out / f"{name}.md").write_text(markdown(frontmatter, package_body(recipe, providers[name])), encoding="utf-8")
    for virtual in sorted(virtuals):
        summary = f"Virtual package {virtual}: an interface several packages provide."
        listed = "\n".join(f"- {p}" for p in providers[virtual])
        frontmatter = {"id": virtual, "kind": "virtual", "title": virtual, "summary": summary}
        body = f"# {virtual}\n\n{summary}\n\n## Providers\n\n{listed}"
        (out / f"{virtual}.md").write_text(markdown(frontmatter, body), encoding="utf-8")
    stale = [p for p in out.glob("*.md") if p.stem not in recipes and p.stem not in virtuals]
    for path in stale:  # a package removed upstream must not stay in the pack
        path.unlink()
    pack = {
        "id": "spack",
        "title": "Spack packages",
        "description": "The package recipes of Spack's builtin repository (spack/spack-packages): one entity per "
        "package with its description and variants, typed links from its directives.",
        "language": "en",
        "relations": {name: {"description": text} for name, text in RELATIONS.items()},
    }
    (out / "pack.yaml").write_text(yaml.safe_dump(pack, sort_keys=False, width=100), encoding="utf-8")
    counts = Counter(relation for package in related.values() for relation, ts in package.items() for _ in ts)
    report = {
        "packages written": sum(not r.virtual for r in recipes.values()),
        "virtual packages": f"{len(virtuals)} without a recipe, {sum(r.virtual for r in recipes.values())} with one",
        "recipes skipped": dict(tally.skipped),
        "stale files removed": len(stale),
        "links": {r: counts[r] for r in RELATIONS},
        "links dropped": dict(dropped),
        "specs naming no package or not read": dict(tally.unreadable_specs),
        "dependency types not literal (read as build+link)": tally.unreadable_types,
    }
    print(yaml.safe_dump(report, sort_keys=False).rstrip())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="a checkout of spack/spack-packages (or its packages folder)")
    parser.add_argument("out", type=Path, help="the pack folder to write")
    args = parser.parse_args(argv)
    if not args.source.is_dir():
        sys.exit(f"{args.source}: no such folder")
    build(args.source, args.out)


if __name__ == "__main__":
    main()
