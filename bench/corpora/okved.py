"""ОКВЭД 2 (OKVED2), the Russian classifier of economic activities, as a pack: one entity per code.

A corpus in Russian whose titles are ordinary phrases («Выращивание зерновых культур»), not names, so a
question cannot be answered by matching an identifier. ОК 029-2014 is harmonised with NACE Rev. 2: sections
A-U, then classes (01), subclasses (01.1), groups (01.11), subgroups (01.11.1) and types (01.11.11).

Source: the workbook ``ОКВЭД по разделам.xlsx`` of the public repository sibdigital/okved (commit
b8f5d2f84fa1, 2020-07-10), one sheet per section, a code and its name in columns A and B and the
explanatory notes ("Эта группировка включает: ...", "Эта группировка не включает: ..., см. 01.13") in
column B of the rows below. Its text is the classifier with amendments 1/2015 to 27/2020 as a legal
database publishes it; that database's own lines (amendment references, "КонсультантПлюс: примечание.")
are left out. The repository states no licence. The classifier itself, adopted by order of Rosstandart
No. 14-ст of 31 January 2014, is an official document, which article 1259(6) of the Russian Civil Code
leaves outside copyright. The workbook names no section, so section titles are below.

One entity per section and code: ``id`` OKVED.A or OKVED.01.11.1, ``kind`` by the code's shape, ``title``
the name as written, ``summary`` the notes' first sentence (a list's opening with its first item: "Эта
группировка включает все формы ...") or the title, the body the notes as written. Typed links: ``part_of``
the level above, ``excludes`` every existing code or section a "не включает" list refers to with "см.".
The workbook is read with the standard library (an xlsx file is zipped XML).

Example:
    python -m bench.corpora.okved "okved/ОКВЭД по разделам.xlsx" okved-pack/
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from xml.etree import ElementTree

import yaml

PREFIX = "OKVED"
SECTIONS = {
    "A": "Сельское, лесное хозяйство, охота, рыболовство и рыбоводство",
    "B": "Добыча полезных ископаемых",
    "C": "Обрабатывающие производства",
    "D": "Обеспечение электрической энергией, газом и паром; кондиционирование воздуха",
    "E": "Водоснабжение; водоотведение, организация сбора и утилизации отходов, деятельность по ликвидации загрязнений",
    "F": "Строительство",
    "G": "Торговля оптовая и розничная; ремонт автотранспортных средств и мотоциклов",
    "H": "Транспортировка и хранение",
    "I": "Деятельность гостиниц и предприятий общественного питания",
    "J": "Деятельность в области информации и связи",
    "K": "Деятельность финансовая и страховая",
    "L": "Деятельность по операциям с недвижимым имуществом",
    "M": "Деятельность профессиональная, научная и техническая",
    "N": "Деятельность административная и сопутствующие дополнительные услуги",
    "O": "Государственное управление и обеспечение военной безопасности; социальное обеспечение",
    "P": "Образование",
    "Q": "Деятельность в области здравоохранения и социальных услуг",
    "R": "Деятельность в области культуры, спорта, организации досуга и развлечений",
    "S": "Предоставление прочих видов услуг",
    "T": "Деятельность домашних хозяйств как работодателей; недифференцированная деятельность частных "
    "домашних хозяйств по производству товаров и оказанию услуг для собственного потребления",
    "U": "Деятельность экстерриториальных организаций и органов",
}
RELATIONS = {
    "part_of": ("has_part", "Более общая группировка, в которую входит эта."),
    "excludes": (
        "excluded_from",
        "Группировка, к которой отнесена деятельность, исключённая из этой: ссылка «см.» в перечне "
        "«Эта группировка не включает».",
    ),
}
KINDS = ("section", "class", "subclass", "group", "subgroup", "type")
CODE = re.compile(r"\d\d(?:\.\d\d?){0,2}")
# A line opening a list of the notes: "Эта группировка (также|не) включает:", "В эту группировку входят:".
HEADER = re.compile(r"^[^-].*\b(?:включает|включают|входят|включена)(?: также)?:$")
EXCLUDING = re.compile(r"\bне\s+(?:включает|включают|входят|включена)\b")
SEE = re.compile(r"\bсм\.")
# One reference after "см.": a code, or a section letter after "раздел" ("см. соответствующие группировки 25 - 30",
# "см. группировки раздела C", "см. (согласно виду транспорта) 49.20"); Cyrillic look-alikes are read as Latin.
REFERENCE = re.compile(
    r"\s*(?:\([^)]*\)\s*)?(?:соответствующ\w*\s+)?"
    r"(?:(?:групп\w*\s+)?(?:в\s+)?раздел\w*\s+(?P<section>[A-UАВСЕНКМОРТ])\b"
    r"|(?:(?:групп\w*|подкласс\w*|класс\w*|код\w*)\s+)?(?P<code>\d\d(?:\.\d\d?){0,2})(?![\d.]\d))"
)
JOINER = re.compile(r"\s*(?:,|\bи\b|\bили\b|-|–|—)\s*")
LOOKALIKE = str.maketrans("АВСЕНКМОРТ", "ABCEHKMOPT")
SENTENCE = re.compile(r"(.+?[.!?])(?=\s+[«\"(A-ZА-ЯЁ]|$)")  # "см. 01.13" ends no sentence
MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
RELS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PACKAGE_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"


@dataclass
class Code:
    """One code of the classifier: its section (a sheet), name and explanatory notes line by line."""

    code: str
    section: str
    title: str
    notes: list[str] = field(default_factory=list)


@dataclass
class Tally:
    """What the reader left out, so the report says it."""

    editorial: int = 0  # the legal database's own lines: amendment references, its notes on typos
    orphan_lines: int = 0  # note lines under no code: before the first of a sheet, or after an editorial line
    unknown_sheets: list[str] = field(default_factory=list)
    references_to_no_code: Counter[str] = field(default_factory=Counter)


def shared_strings(book: zipfile.ZipFile) -> list[str]:
    """The workbook's string table: each item's text runs joined (phonetic runs left out)."""
    if "xl/sharedStrings.xml" not in book.namelist():
        return []
    root = ElementTree.fromstring(book.read("xl/sharedStrings.xml"))
    return [
        "".join(t.text or "" for t in [*item.findall(f"{MAIN}t"), *item.findall(f"{MAIN}r/{MAIN}t")])
        for item in root.findall(f"{MAIN}si")
    ]


def sheets(book: zipfile.ZipFile) -> Iterator[tuple[str, str]]:
    """(sheet name, path inside the zip) in the workbook's order."""
    rels = ElementTree.fromstring(book.read("xl/_rels/workbook.xml.rels"))
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels.findall(f"{PACKAGE_RELS}Relationship")}
    workbook = ElementTree.fromstring(book.read("xl/workbook.xml"))
    for sheet in workbook.iter(f"{MAIN}sheet"):
        target = targets.get(sheet.get(f"{RELS}id"), "")
        path = target.lstrip("/") if target.startswith("/") else str(PurePosixPath("xl") / target)
        yield sheet.get("name", ""), path


def cell_text(cell: ElementTree.Element, strings: list[str]) -> str:
    if cell.get("t") == "inlineStr":
        return "".join(t.text or "" for t in cell.iter(f"{MAIN}t"))
    value = cell.find(f"{MAIN}v")
    if value is None or value.text is None:
        return ""
    return strings[int(value.text)] if cell.get("t") == "s" else value.text


def rows(book: zipfile.ZipFile, path: str, strings: list[str]) -> Iterator[tuple[str, str]]:
    """Columns A and B of each row, whitespace collapsed."""
    for row in ElementTree.fromstring(book.read(path)).iter(f"{MAIN}row"):
        cells = {re.sub(r"\d", "", c.get("r", "")): cell_text(c, strings) for c in row.findall(f"{MAIN}c")}
        yield " ".join(cells.get("A", "").split()), " ".join(cells.get("B", "").split())


def read_workbook(path: Path, tally: Tally) -> dict[str, Code]:
    """Every code of the workbook with its notes; lines of column A that are no code end the notes above."""
    codes: dict[str, Code] = {}
    with zipfile.ZipFile(path) as book:
        strings = shared_strings(book)
        for name, sheet in sheets(book):
            section = name.strip().upper().translate(LOOKALIKE)
            if section not in SECTIONS:
                tally.unknown_sheets.append(name)
                continue
            current: Code | None = None
            for first, second in rows(book, sheet, strings):
                if CODE.fullmatch(first):
                    current = codes[first] = Code(first, section, second)
                elif first:
                    tally.editorial += 1
                    current = None
                elif second and current is not None:
                    current.notes.append(second)
                elif second:
                    tally.orphan_lines += 1
    return codes


def kind(code: str) -> str:
    """section A, class 01, subclass 01.1, group 01.11, subgroup 01.11.1, type 01.11.11."""
    if not code[:1].isdigit():
        return "section"
    parts = code.split(".")
    if len(parts) == 1:
        return "class"
    return KINDS[2 * len(parts) - 2 + (len(parts[-1]) == 2)]


def parent(code: Code, known: Collection[str]) -> str:
    """The code one level up: 01.11.11 -> 01.11.1 -> 01.11 -> 01.1 -> 01 -> its section.

    A level the source lacks is skipped (the nearest code above that exists), so no link dangles.
    """
    up = code.code
    while "." in up:
        head, last = up.rsplit(".", 1)
        up = f"{head}.{last[0]}" if len(last) == 2 else head
        if up in known:
            return up
    return code.section


def references(text: str) -> Iterator[str]:
    """The codes and sections a line names after each "см.": 46.31.4, 01.1 - 01.3, раздел G."""
    for see in SEE.finditer(text):
        at = see.end()
        while match := REFERENCE.match(text, at):
            yield match.group("code") or match.group("section").translate(LOOKALIKE)
            joiner = JOINER.match(text, match.end())
            if joiner is None:
                break
            at = joiner.end()


def excluded(notes: list[str]) -> Iterator[str]:
    """References in the lists of what a code does not include ("Эта группировка не включает: ... см. 01.13")."""
    excluding = False
    for line in notes:
        if HEADER.match(line):
            excluding = bool(EXCLUDING.search(line))
        elif excluding:
            yield from references(line)


def first_sentence(text: str) -> str:
    match = SENTENCE.match(text)
    return match.group(1) if match else text


def summary(code: Code) -> str:
    """The notes' first sentence: a list's opening and first item, the title when the notes open with exclusions."""
    if not code.notes:
        return code.title
    first = code.notes[0]
    if HEADER.match(first):
        items = code.notes[1:2]
        if EXCLUDING.search(first) or not items or not items[0].startswith("-"):
            return code.title
        item = items[0].lstrip("- ").rstrip(" ;,.")
        return f"{first.rstrip(' :')} {item}."
    return first_sentence(first)


def body(code: Code) -> str:
    """The notes as written: list openings and prose as paragraphs, the items of a list together."""
    heading = f"# Раздел {code.code}. {code.title}" if kind(code.code) == "section" else f"# {code.code} {code.title}"
    blocks: list[list[str]] = [[heading]]
    for line in code.notes:
        if line.startswith("-") and blocks[-1][-1].startswith("- "):
            blocks[-1].append("- " + line.lstrip("- "))
        elif line.startswith("-"):
            blocks.append(["- " + line.lstrip("- ")])
        else:
            blocks.append([line])
    return "\n\n".join("\n".join(block) for block in blocks)


def entity_id(code: str) -> str:
    return f"{PREFIX}.{code}"


def markdown(frontmatter: dict[str, Any], text: str) -> str:
    header = yaml.safe_dump(frontmatter, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{header}---\n\n{text.rstrip()}\n"


def build(source: Path, out: Path) -> None:
    tally = Tally()
    codes = read_workbook(source, tally)
    sections = sorted({c.section for c in codes.values()})
    entries = [Code(s, s, SECTIONS[s]) for s in sections] + list(codes.values())
    known = set(sections) | set(codes)
    links: Counter[str] = Counter()
    out.mkdir(parents=True, exist_ok=True)
    written: set[str] = set()
    for entry in entries:
        related: dict[str, Any] = {}
        if entry.code not in sections:
            related["part_of"] = entity_id(parent(entry, codes))
        targets = []
        for target in excluded(entry.notes):
            if target not in known:
                tally.references_to_no_code[target] += 1
            elif target != entry.code and entity_id(target) not in targets:
                targets.append(entity_id(target))
        if targets:
            related["excludes"] = targets
        for relation, value in related.items():
            links[relation] += len(value) if isinstance(value, list) else 1
        frontmatter: dict[str, Any] = {
            "id": entity_id(entry.code),
            "kind": kind(entry.code),
            "title": entry.title,
            "summary": summary(entry),
            "code": entry.code,
        }
        if related:
            frontmatter["related"] = related
        name = f"{entry.code}.md"
        (out / name).write_text(markdown(frontmatter, body(entry)), encoding="utf-8")
        written.add(name)
    stale = [p for p in out.glob("*.md") if p.name not in written]
    for path in stale:  # a code gone from the source must not stay in the pack
        path.unlink()
    pack = {
        "id": "okved",
        "title": "ОКВЭД 2: Общероссийский классификатор видов экономической деятельности",
        "description": "ОК 029-2014 (КДЕС Ред. 2) с изменениями по 27/2020: разделы, классы, подклассы, группы, "
        "подгруппы и виды деятельности с пояснениями к ним; связи с более общей группировкой и с группировками, "
        "на которые ссылается перечень «Эта группировка не включает».",
        "language": "ru",
        "relations": {name: {"inverse": inverse, "description": text} for name, (inverse, text) in RELATIONS.items()},
    }
    (out / "pack.yaml").write_text(
        yaml.safe_dump(pack, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )
    report = {
        "entities written": dict(Counter(kind(e.code) for e in entries)),
        "with notes": sum(bool(e.notes) for e in entries),
        "links": {r: links[r] for r in RELATIONS},
        "references to no code, left out": dict(tally.references_to_no_code),
        "editorial lines left out": tally.editorial,
        "note lines under no code, left out": tally.orphan_lines,
        "sheets that name no section": tally.unknown_sheets,
        "stale files removed": len(stale),
    }
    print(yaml.safe_dump(report, sort_keys=False, allow_unicode=True).rstrip())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="the workbook (ОКВЭД по разделам.xlsx of sibdigital/okved)")
    parser.add_argument("out", type=Path, help="the pack folder to write")
    args = parser.parse_args(argv)
    if not args.source.is_file() or not zipfile.is_zipfile(args.source):
        sys.exit(f"{args.source}: not an xlsx workbook")
    build(args.source, args.out)


if __name__ == "__main__":
    main()
