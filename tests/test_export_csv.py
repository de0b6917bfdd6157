"""Shop CSVs are data, not formulas: a cell that starts a formula is neutralised in every CSV cardpress writes."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from conftest import run_cli
from deck_helpers import deck_project

from generator.export.spreadsheet import FORMULA_STARTS, csv_bytes, neutralise

FRONT = """\
{% import "macros.j2" as m %}
bleed: 3
elements:
- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#ffffff", bleed=true) }}
- {{ m.text(4, 8, face.w - 8, 10, card.name, size=6, plain=true, id="name") }}
"""
NAMES = ['=HYPERLINK("http://x.example","go")', "+1+2", "-3", "@SUM(A1:A9)", "Plain"]


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_a_cell_starting_a_formula_gets_a_quote_before_it(start):
    assert neutralise(f"{start}cmd") == f"'{start}cmd"


def test_other_cells_are_left_as_they_are():
    assert [neutralise(v) for v in ("Plain", "a=b", " =x", "'=x", "", 3, -3)] == [
        "Plain",
        "a=b",
        " =x",
        "'=x",
        "",
        3,
        -3,
    ]
    assert csv_bytes([["a", "=1", 2], ["\rx", "b,c", "\tq"]]) == b'a,\'=1,2\n"\'\rx","b,c",\'\tq\n'


def _csvs(out: Path) -> dict[str, bytes]:
    """Every CSV under `out`, those inside zips included, by path."""
    found = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*.csv")}
    for archive in out.rglob("*.zip"):
        with zipfile.ZipFile(archive) as z:
            found.update({f"{archive.name}:{n}": z.read(n) for n in z.namelist() if n.endswith(".csv")})
    return found


def test_every_csv_of_every_export_is_free_of_formulas(tmp_path):
    rows = "".join(f'"{n.replace(chr(34), chr(34) * 2)}",1,0,x\n' for n in NAMES)
    project = deck_project(tmp_path, csv="name,copies,cost,text\n" + rows, files={"layouts/front.yaml.j2": FRONT})
    out = tmp_path / "out"
    result = run_cli(
        "export",
        "tiny",
        "--to",
        "all",
        "--root",
        str(project),
        "--out",
        str(out),
        "--missing-art",
        "placeholder",
        cwd=project,
    )
    assert result.returncode == 0, result.stderr
    found = _csvs(out)
    assert {"tiny/thegamecrafter", "tiny/makeplayingcards", "tiny/cards"} <= {str(Path(p).parent.parent) for p in found}
    for name, data in found.items():
        cells = [cell for row in csv.reader(io.StringIO(data.decode("utf-8"))) for cell in row]
        assert not [c for c in cells if c.startswith(FORMULA_STARTS)], name
        names = [row["name"] for row in csv.DictReader(io.StringIO(data.decode("utf-8")))]
        assert sorted(names) == sorted("'" + n if n.startswith(FORMULA_STARTS) else n for n in NAMES), name
