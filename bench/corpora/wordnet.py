"""Nouns of the Open English WordNet as a pack of a thesaurus shape: terms, their broader terms, parts,
materials and fields.

A corpus nobody on the team wrote whose titles are ordinary English phrases (``abandoned ship``,
``abacus (calculator)``) and whose ids (``wn-02669131-n``) give nothing away, so a question has to find an
entity by what it means. Source: the public repository globalwordnet/english-wordnet, its YAML sources
(``src/yaml/noun.*.yaml``); built and checked against commit ``d94538ad0df3`` (2026-08-19). Licence: the
Open English WordNet is CC BY 4.0 (copyright the Open English WordNet team), derived from Princeton
WordNet under the WordNet licence (the repository's ``LICENSE.md`` and ``WNDB_License.txt``); a pack built
from it carries that attribution in its ``pack.yaml``.

Example:
    python -m bench.corpora.wordnet english-wordnet/ wordnet-artifact/ --lexfiles noun.artifact --max-entities 6000
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

YAML = Path("src/yaml")
EXCLUDED = frozenset({"noun.food", "noun.plant", "noun.animal", "noun.body"})  # kept out of these packs on purpose
RELATIONS = {  # name: (inverse, description as pack.yaml gives it)
    "is_a": ("has_subtype", "The broader term this one is a kind of."),
    "part_of": ("has_part", "The whole this thing is a part of."),
    "made_of": ("material_of", "A material or substance this thing is made of."),
    "in_field": ("field_of", "The field, subject or activity the term is used in."),
}
KINDS = ("term", "material", "field")
MIN_SUBTREE = 3  # a subtree is taken whole, so a pick adds a term with at least two narrower ones
SUBTREE_SHARE = 10  # no subtree larger than a tenth of the budget: the pack is made of several
SENTENCE = re.compile(r"(.+?[.!?])(?=\s+[A-Z0-9\"'(\[]|$)")
Synonyms = Literal["body", "aliases"]


@dataclass
class Synset:
    """One noun synset, as far as the pack needs it."""

    id: str
    lexfile: str
    members: list[str]
    definitions: list[str]
    examples: list[str]
    hypernyms: list[str]
    parts: list[str]  # mero_part: the synsets that are parts of this one
    substances: list[str]  # mero_substance: what this one is made of
    topics: list[str]  # domain_topic: the fields this one is used in
    wholes: list[str] = field(default_factory=list)  # holo_part, filled from the parts of the others


def example_text(example: Any) -> str | None:
    """An example is a string, or a mapping of its text and the source quoted."""
    if isinstance(example, str):
        return " ".join(example.split())
    if isinstance(example, dict) and isinstance(example.get("text"), str):
        text = " ".join(example["text"].split())
        return f"{text} ({example['source']})" if isinstance(example.get("source"), str) else text
    return None


def strings(value: Any) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def load(folder: Path) -> dict[str, Synset]:
    """Every noun synset of the YAML sources, with holo_part filled in (the sources keep one direction)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader reads the 26 files ~10x faster
    synsets: dict[str, Synset] = {}
    for path in sorted(folder.glob("noun.*.yaml")):
        lexfile = path.name.removesuffix(".yaml")
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
        for synset_id, entry in (data or {}).items():
            if not isinstance(entry, dict) or not strings(entry.get("members")):
                continue
            synsets[str(synset_id)] = Synset(
                id=str(synset_id),
                lexfile=lexfile,
                members=strings(entry.get("members")),
                definitions=[" ".join(d.split()) for d in strings(entry.get("definition"))],
                examples=[t for e in entry.get("example") or [] if (t := example_text(e))],
                hypernyms=strings(entry.get("hypernym")),
                parts=strings(entry.get("mero_part")),
                substances=strings(entry.get("mero_substance")),
                topics=strings(entry.get("domain_topic")),
            )
    for synset in synsets.values():
        for part in synset.parts:
            if part in synsets:
                synsets[part].wholes.append(synset.id)
    return synsets


def entity_id(synset_id: str) -> str:
    return f"wn-{synset_id}"


class Selection:
    """Whole hypernym subtrees of the chosen lexfiles, with every broader term above them up to the root,
    and the materials and fields their terms name, until the budget is spent."""

    def __init__(self, synsets: dict[str, Synset], lexfiles: Sequence[str]) -> None:
        self.synsets = synsets
        self.terms = {s.id for s in synsets.values() if s.lexfile in lexfiles}
        self.children: dict[str, list[str]] = defaultdict(list)
        for term in sorted(self.terms):
            for parent in synsets[term].hypernyms:
                if parent in self.terms:
                    self.children[parent].append(term)
        self.subtrees: dict[str, frozenset[str]] = {}

    def allowed(self, synset_id: str) -> bool:
        return synset_id in self.synsets and self.synsets[synset_id].lexfile not in EXCLUDED

    def subtree(self, root: str) -> frozenset[str]:
        """The root and every narrower term of the chosen lexfiles under it."""
        if root not in self.subtrees:
            seen, todo = {root}, [root]
            while todo:
                for child in self.children[todo.pop()]:
                    if child not in seen:
                        seen.add(child)
                        todo.append(child)
            self.subtrees[root] = frozenset(seen)
        return self.subtrees[root]

    def with_ancestors(self, nodes: Iterable[str]) -> set[str]:
        """The nodes and all their broader terms, in any lexfile but the excluded ones."""
        seen = set(nodes)
        todo = list(seen)
        while todo:
            for parent in self.synsets[todo.pop()].hypernyms:
                if parent not in seen and self.allowed(parent):
                    seen.add(parent)
                    todo.append(parent)
        return seen

    def named(self, nodes: Iterable[str]) -> set[str]:
        """Materials and fields the nodes' terms name: entities of their own, so no such link dangles."""
        return {t for n in nodes if n in self.terms for t in self.synsets[n].substances + self.synsets[n].topics}

    def select(self, budget: int, rng: random.Random) -> set[str]:
        """Subtrees in a random order that favours large ones (key u ** (1 / size)), each taken if it fits."""
        cap = max(MIN_SUBTREE, budget // SUBTREE_SHARE)
        sizes = {t: len(self.subtree(t)) for t in sorted(self.terms)}
        order = sorted(
            (t for t, n in sizes.items() if MIN_SUBTREE <= n <= cap), key=lambda t: -(rng.random() ** (1 / sizes[t]))
        )
        pack: set[str] = set()
        for root in order:
            new = self.with_ancestors(self.subtree(root)) - pack
            if not new:
                continue
            new |= {t for t in self.named(new) if self.allowed(t)} - pack
            if len(pack) + len(new) <= budget:
                pack |= new
        return pack


def first_sentence(text: str) -> str:
    match = SENTENCE.match(text)
    return match.group(1) if match else text


def sentence(text: str) -> str:
    """A definition or example written as a sentence: capital first, full stop last."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def titles(synsets: dict[str, Synset], pack: set[str]) -> tuple[dict[str, str], Counter[str]]:
    """Each entity's first lemma; lemmas two entities share get a qualifier, as a dictionary would write:
    ``abacus (calculator)`` and ``abacus (tablet)``, from the broader term, else the whole, field, synonym
    or term two levels up, else a number in synset order."""
    groups: dict[str, list[str]] = defaultdict(list)
    for synset_id in sorted(pack):
        groups[synsets[synset_id].members[0].lower()].append(synset_id)
    out: dict[str, str] = {}
    tally: Counter[str] = Counter()
    for lemma, group in groups.items():
        if len(group) == 1:
            out[group[0]] = synsets[group[0]].members[0]
            continue
        options = {s: [q for q in qualifiers(synsets, s) if q.lower() != lemma] for s in group}
        chosen: dict[str, str | None] = {}
        for synset_id in group:  # the first word no other sense of the group puts first
            others = {options[o][0].lower() for o in group if o != synset_id and options[o]}
            chosen[synset_id] = next((q for q in options[synset_id] if q.lower() not in others), None)
        taken = Counter(q.lower() for q in chosen.values() if q)
        for number, synset_id in enumerate(group, 1):
            word = chosen[synset_id]
            if word is None or taken[word.lower()] > 1:
                word, how = str(number), "numbered"
            else:
                how = "by the broader term" if word == options[synset_id][0] else "by another word"
            out[synset_id] = f"{synsets[synset_id].members[0]} ({word})"
            tally[how] += 1
    clashes = Counter(t.lower() for t in out.values())
    for synset_id, title in out.items():  # a qualified title that is another entity's lemma: the synset id decides
        if clashes[title.lower()] > 1 and title != synsets[synset_id].members[0]:
            out[synset_id] = f"{title} ({synset_id})"
            tally["clashing, given the synset id"] += 1
    return out, tally


def qualifiers(synsets: dict[str, Synset], synset_id: str) -> list[str]:
    """Words that tell one sense from another, in the order tried: the broader terms' first lemmas, the
    wholes it is part of, its fields, its other lemmas, then the terms two levels up."""
    synset = synsets[synset_id]
    parents = [synsets[h] for h in synset.hypernyms if h in synsets]
    found = [p.members[0] for p in parents]
    found += [synsets[t].members[0] for t in synset.wholes + synset.topics if t in synsets]
    found += synset.members[1:]
    found += [synsets[g].members[0] for p in parents for g in p.hypernyms if g in synsets]
    return list(dict.fromkeys(found))


def links(synsets: dict[str, Synset], pack: set[str], synset_id: str) -> dict[str, list[str]]:
    """The entity's typed links to entities of the pack, in their declared direction."""
    synset = synsets[synset_id]
    targets = {
        "is_a": synset.hypernyms,
        "part_of": synset.wholes,
        "made_of": synset.substances,
        "in_field": synset.topics,
    }
    return {r: sorted(entity_id(t) for t in set(ts) & pack) for r, ts in targets.items() if set(ts) & pack}


def markdown(frontmatter: dict[str, Any], body: str) -> str:
    header = yaml.safe_dump(frontmatter, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{header}---\n\n{body.rstrip()}\n"


def entity_body(title: str, synset: Synset, synonyms: list[str], in_body: bool) -> str:
    parts = [f"# {title}", " ".join(sentence(d) for d in synset.definitions)]
    if synonyms and in_body:
        parts.append(f"Synonyms: {', '.join(synonyms)}.")
    if synset.examples:
        heading = "## Examples" if len(synset.examples) > 1 else "## Example"
        parts.append(heading + "\n\n" + "\n\n".join(sentence(e) for e in synset.examples))
    return "\n\n".join(parts)


def build(source: Path, out: Path, lexfiles: list[str], budget: int, synonyms: Synonyms, seed: int) -> None:
    folder = source / YAML if (source / YAML).is_dir() else source
    synsets = load(folder)
    unknown = [f for f in lexfiles if not any(s.lexfile == f for s in synsets.values())]
    if unknown or set(lexfiles) & EXCLUDED:
        sys.exit(f"lexfiles not found or excluded: {', '.join(unknown or sorted(set(lexfiles) & EXCLUDED))}")
    selection = Selection(synsets, lexfiles)
    pack = selection.select(budget, random.Random(seed))
    related = {s: links(synsets, pack, s) for s in sorted(pack)}
    fields = {t for r in related.values() for t in r.get("in_field", [])}
    materials = {t for r in related.values() for t in r.get("made_of", [])} - fields
    kinds = {
        s: "field" if entity_id(s) in fields else "material" if entity_id(s) in materials else "term" for s in pack
    }
    names, disambiguated = titles(synsets, pack)
    out.mkdir(parents=True, exist_ok=True)
    written: set[str] = set()
    for synset_id in sorted(pack):
        synset = synsets[synset_id]
        title = names[synset_id]
        lemma = synset.members[0].lower()
        others = list(dict.fromkeys(m for m in synset.members[1:] if m.lower() != lemma))
        definition = synset.definitions[0] if synset.definitions else title
        frontmatter: dict[str, Any] = {
            "id": entity_id(synset_id),
            "kind": kinds[synset_id],
            "title": title,
            "summary": sentence(first_sentence(definition)),
        }
        if others and synonyms == "aliases":
            frontmatter["aliases"] = others
        if related[synset_id]:
            frontmatter["related"] = related[synset_id]
        body = entity_body(title, synset, others, synonyms == "body")
        (out / f"{entity_id(synset_id)}.md").write_text(markdown(frontmatter, body), encoding="utf-8")
        written.add(entity_id(synset_id))
    stale = [p for p in out.glob("*.md") if p.stem not in written]
    for path in stale:  # an entity a smaller budget or another seed left out must not stay in the pack
        path.unlink()
    name = lexfiles[0].removeprefix("noun.").lower()
    pack_yaml = {
        "id": f"wordnet-{name}",
        "title": f"WordNet nouns: {', '.join(f.removeprefix('noun.') for f in lexfiles)}",
        "description": f"Nouns of the Open English WordNet ({', '.join(lexfiles)}): one entity per synset with its "
        "definition, examples and synonyms; the broader terms, parts, materials and fields they link to. "
        "Derived from the Open English WordNet (CC BY 4.0, the Open English WordNet team) and Princeton WordNet "
        "(WordNet licence, Princeton University).",
        "language": "en",
        "relations": {r: {"inverse": inverse, "description": text} for r, (inverse, text) in RELATIONS.items()},
    }
    (out / "pack.yaml").write_text(yaml.safe_dump(pack_yaml, sort_keys=False, width=100), encoding="utf-8")
    counts = Counter(r for links_ in related.values() for r, ts in links_.items() for _ in ts)
    outside = set(synsets) - pack
    dropped = Counter(r for s in pack for r, ts in links(synsets, outside, s).items() for _ in ts)
    report = {
        "entities": {k: sum(v == k for v in kinds.values()) for k in KINDS},
        "entities from other lexfiles (broader terms, materials, fields)": sum(
            synsets[s].lexfile not in lexfiles for s in pack
        ),
        "links": {r: counts[r] for r in RELATIONS},
        "links to synsets outside the pack, left out": {r: dropped[r] for r in RELATIONS},
        "titles disambiguated": dict(disambiguated),
        "stale files removed": len(stale),
    }
    print(yaml.safe_dump(report, sort_keys=False).rstrip())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="a checkout of globalwordnet/english-wordnet (or its src/yaml)")
    parser.add_argument("out", type=Path, help="the pack folder to write")
    parser.add_argument(
        "--lexfiles", default="noun.artifact", help="noun lexfiles, comma-separated: noun.cognition,noun.communication"
    )
    parser.add_argument("--max-entities", type=int, default=6000, help="entities of every kind together")
    parser.add_argument(
        "--synonyms", choices=["body", "aliases"], default="body", help="a 'Synonyms:' line of the body, or aliases"
    )
    parser.add_argument("--seed", type=int, default=17, help="the order subtrees are tried in")
    args = parser.parse_args(argv)
    if not args.source.is_dir():
        sys.exit(f"{args.source}: no such folder")
    lexfiles = [f.strip() for f in args.lexfiles.split(",") if f.strip()]
    build(args.source, args.out, lexfiles, args.max_entities, args.synonyms, args.seed)


if __name__ == "__main__":
    main()
