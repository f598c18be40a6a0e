"""bench/corpora/okved.py on a workbook of five codes: ids, kinds, parent links and the excludes link."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest
import yaml

from bench.corpora import okved

pytestmark = pytest.mark.fast

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"

# (column A, column B) per row and sheet, as the source lays them out: a code and its name, then its notes.
SHEETS = {
    "A": [
        ("01", "Растениеводство и животноводство, охота и предоставление соответствующих услуг в этих областях"),
        ("01.1", "Выращивание однолетних культур"),
        ("01.11", "Выращивание зерновых (кроме риса), зернобобовых культур и семян масличных культур"),
        ("", "Эта группировка включает:"),
        ("", "- все формы выращивания зерновых, зернобобовых культур и семян масличных культур в открытом грунте"),
        ("", "Эта группировка не включает:"),
        ("", "- производство муки, см. 10.61;"),
        ("", "- выращивание сахарной кукурузы, см. 01.13"),  # no such code in this workbook: no link
        ("(в ред. Изменения 1/2015 ОКВЭД2, утв. Приказом Росстандарта от 26.05.2015 N 423-ст)", ""),
        ("", "строка после правки, ни к одному коду не относится"),
        ("01.11.1", "Выращивание зерновых культур"),
    ],
    "C": [("10.61", "Производство продуктов мукомольной и крупяной промышленности")],
}


def cell(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{escape(text)}</t></is></c>'


def write_workbook(path: Path) -> None:
    """A minimal xlsx: the workbook, its relationships and one sheet of inline strings per section."""
    with zipfile.ZipFile(path, "w") as book:
        sheets = "".join(f'<sheet name="{name}" sheetId="{n}" r:id="rId{n}"/>' for n, name in enumerate(SHEETS, 1))
        book.writestr(
            "xl/workbook.xml", f'<workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets>{sheets}</sheets></workbook>'
        )
        rels = "".join(
            f'<Relationship Id="rId{n}" Type="{RELS}/worksheet" Target="worksheets/sheet{n}.xml"/>'
            for n in range(1, len(SHEETS) + 1)
        )
        book.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{PACKAGE_RELS}">{rels}</Relationships>')
        for n, rows in enumerate(SHEETS.values(), 1):
            xml = "".join(
                f'<row r="{r}">{cell(f"A{r}", a) if a else ""}{cell(f"B{r}", b) if b else ""}</row>'
                for r, (a, b) in enumerate(rows, 1)
            )
            book.writestr(
                f"xl/worksheets/sheet{n}.xml", f'<worksheet xmlns="{MAIN}"><sheetData>{xml}</sheetData></worksheet>'
            )


def read(folder: Path) -> dict[str, tuple[dict[str, Any], str]]:
    entities = {}
    for path in folder.glob("*.md"):
        _, header, body = path.read_text(encoding="utf-8").split("---\n", 2)
        data = yaml.safe_load(header)
        entities[data["id"]] = (data, body)
    return entities


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    source, out = tmp_path / "okved.xlsx", tmp_path / "pack"
    write_workbook(source)
    okved.build(source, out)
    return out


def test_one_entity_per_code_and_section_with_its_kind(pack: Path) -> None:
    entities = read(pack)
    kinds = {entity_id: data["kind"] for entity_id, (data, _) in entities.items()}
    assert kinds == {
        "OKVED.A": "section",
        "OKVED.C": "section",
        "OKVED.01": "class",
        "OKVED.01.1": "subclass",
        "OKVED.01.11": "group",
        "OKVED.01.11.1": "subgroup",
        "OKVED.10.61": "group",
    }
    data, body = entities["OKVED.01.11"]
    assert data["title"] == "Выращивание зерновых (кроме риса), зернобобовых культур и семян масличных культур"
    assert data["summary"].startswith("Эта группировка включает все формы выращивания зерновых")
    assert "- производство муки, см. 10.61;" in body
    assert "Изменения" not in body and "строка после правки" not in body  # the legal database's lines are left out
    assert entities["OKVED.A"][0]["title"] == okved.SECTIONS["A"]
    assert entities["OKVED.01.11.1"][0]["summary"] == "Выращивание зерновых культур"  # no notes: the title


def test_parent_links_climb_one_level_up_to_the_section(pack: Path) -> None:
    parents = {entity_id: data.get("related", {}).get("part_of") for entity_id, (data, _) in read(pack).items()}
    assert parents == {
        "OKVED.A": None,
        "OKVED.C": None,
        "OKVED.01": "OKVED.A",
        "OKVED.01.1": "OKVED.01",
        "OKVED.01.11": "OKVED.01.1",
        "OKVED.01.11.1": "OKVED.01.11",
        "OKVED.10.61": "OKVED.C",  # 10.6 and 10 are not in this workbook: the nearest level that is
    }
    assert okved.kind("01.11.11") == "type"


def test_excludes_links_only_codes_the_exclusions_name_that_exist(pack: Path) -> None:
    excludes = {
        entity_id: data["related"]["excludes"]
        for entity_id, (data, _) in read(pack).items()
        if "excludes" in data.get("related", {})
    }
    assert excludes == {"OKVED.01.11": ["OKVED.10.61"]}
    manifest = yaml.safe_load((pack / "pack.yaml").read_text(encoding="utf-8"))
    assert manifest["language"] == "ru"
    assert {name: spec["inverse"] for name, spec in manifest["relations"].items()} == {
        "part_of": "has_part",
        "excludes": "excluded_from",
    }


def test_references_read_lists_ranges_and_sections() -> None:
    line = "- ремонт машин, см. 01.1, 01.2 или 01.3; прочее, см. соответствующие группировки 25 - 30, см. раздел С"
    assert list(okved.references(line)) == ["01.1", "01.2", "01.3", "25", "30", "C"]  # С is Cyrillic here
