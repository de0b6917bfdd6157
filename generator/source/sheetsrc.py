"""Spreadsheet tables: an .xlsx (openpyxl) or .ods (python-calamine) sheet read into the same located table as
a CSV file, each cell located as `file:Sheet!B3`, formulas read by the value the spreadsheet saved.

The header rules, bounds and cell checks are tablesrc's: a sheet is a CSV table whose cells came from a grid.
A workbook is a zip of XML, so it is opened only after its directory says it unpacks to a bounded size
(no zip bomb), and its XML is read without entities (openpyxl through defusedxml, calamine expands none).
"""

from __future__ import annotations

import datetime
import io
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Location, Report, did_you_mean
from . import safefile, tablesrc
from .tablesrc import MAX_COLUMNS, MAX_ROWS, Row, Table

SPREADSHEETS = (".xlsx", ".ods")
MAX_FILE = 20_000_000  # bytes of the workbook as saved
MAX_UNPACKED = 100_000_000  # bytes of all its members unpacked: a bomb is refused before any is read
MAX_MEMBERS = 5_000
ERRORS = ("#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!", "#SPILL!", "#CALC!")
ODS_MIME = b"application/vnd.oasis.opendocument.spreadsheet"


@dataclass
class SheetTable(Table):
    """A sheet read into rows; its cells are located by sheet and A1 reference instead of line and column."""

    sheet: str = ""

    def location(self, line: int, col: int) -> Location:
        """Return the Location of the cell at 0-based row `line`, column `col`: `file:Sheet!B3`."""
        return Location(self.display, line + 1, col + 1, "", cell=f"{self.sheet}!{column_letters(col)}{line + 1}")


def column_letters(col: int) -> str:
    """Return a 0-based column's letters: 0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def is_spreadsheet(name: str) -> bool:
    """Return True for a file name a deck reads as a spreadsheet."""
    return name.lower().endswith(SPREADSHEETS)


def load_file(
    path: Path,
    display: str,
    report: Report,
    roots: safefile.Roots | None = None,
    *,
    sheet: str | None = None,
    asked_at: Location | None = None,
    normalise: bool = False,
) -> Table:
    """Read one sheet (by name, else the first) of an .xlsx or .ods workbook; report every problem at its cell.

    Like a CSV file it must be a regular file inside `roots`. `asked_at` is where the sheet's name is given,
    for a name the workbook lacks.
    """
    empty = SheetTable(display, "", data=[], sheet=sheet or "")
    try:
        raw = safefile.read_bytes(path, MAX_FILE, roots)
    except safefile.Refused as exc:
        exc.report(report, display)
        return empty
    kind = _kind(raw, display, report)
    if kind is None:
        return empty
    try:
        name, grid, formulas = _xlsx(raw, sheet) if kind == "xlsx" else _ods(raw, sheet)
    except _NoSheet as exc:
        report.error(
            "C005",
            f"{display} has no sheet '{sheet}' (its sheets: {', '.join(exc.names)})",
            loc=asked_at or Location(display, 1, 1),
            hint=did_you_mean(sheet or "", exc.names) or "name one of its sheets, as its tab says",
        )
        return empty
    except Exception as exc:  # a damaged workbook: each reader raises its own kinds; say so, never a traceback
        report.error(
            "C005",
            f"cannot read {display} as {'an .xlsx' if kind == 'xlsx' else 'an .ods'} workbook: {exc}",
            loc=Location(display, 1, 1),
            hint="open it in a spreadsheet and save it again (not encrypted or password-protected)",
        )
        return empty
    table = SheetTable(display, "", data=[], sheet=name)
    rows = _rows(grid, formulas, table, report)
    return tablesrc.read_rows(table, rows, report, normalise=normalise)


class _NoSheet(Exception):
    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)


def _kind(raw: bytes, display: str, report: Report) -> str | None:
    """Return 'xlsx' or 'ods' by the workbook's content, after checking its zip directory is bounded."""
    where = Location(display, 1, 1)
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        report.error(
            "C005",
            "this is not a spreadsheet (an .xlsx or .ods file is a zip archive)" + _what(raw),
            loc=where,
            hint="save it from the spreadsheet as .xlsx or .ods, or as 'CSV UTF-8' and name the .csv file",
        )
        return None
    unpacked = sum(m.file_size for m in members)
    if len(members) > MAX_MEMBERS or unpacked > MAX_UNPACKED:
        report.error(
            "C005",
            f"the workbook unpacks to {unpacked:,} bytes in {len(members)} parts; the limits are "
            f"{MAX_UNPACKED:,} bytes and {MAX_MEMBERS:,} parts",
            loc=where,
            hint="a card list is small: save only its sheet, without pictures",
        )
        return None
    names = {m.filename for m in members}
    if "xl/workbook.xml" in names:
        return "xlsx"
    if "mimetype" in names and archive.read("mimetype").strip() == ODS_MIME:
        return "ods"
    report.error(
        "C005",
        "this zip archive is neither an .xlsx nor an .ods spreadsheet",
        loc=where,
        hint="save the card list from the spreadsheet as .xlsx or .ods",
    )
    return None


def _what(raw: bytes) -> str:
    kind = tablesrc.binary_kind(raw)
    return f"; it is {kind}" if kind and not kind.startswith("a zip") else "; it is text" if not kind else ""


def _xlsx(raw: bytes, sheet: str | None) -> tuple[str, list[list[Any]], dict[tuple[int, int], str]]:
    """Return (sheet name, its values by row, {(row, col): formula} for formula cells) of an .xlsx workbook."""
    import openpyxl  # imported when a deck reads a workbook: most never do

    with warnings.catch_warnings():  # "Data Validation extension is not supported" and such: not the user's concern
        warnings.simplefilter("ignore")
        values = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
        formulas_book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=False)
        try:
            name = _pick(values.sheetnames, sheet)
            grid = [list(row) for row in values[name].iter_rows(max_row=MAX_ROWS + 3, values_only=True)]
            formulas = {
                (r, c): value
                for r, row in enumerate(formulas_book[name].iter_rows(max_row=MAX_ROWS + 3, values_only=True))
                for c, value in enumerate(row)
                if isinstance(value, str) and value.startswith("=")
            }
        finally:
            values.close()
            formulas_book.close()
    return name, grid, formulas


def _ods(raw: bytes, sheet: str | None) -> tuple[str, list[list[Any]], dict[tuple[int, int], str]]:
    """Return (sheet name, its values by row, no formulas: an .ods cell keeps the value it showed) of a workbook."""
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_filelike(io.BytesIO(raw))
    name = _pick(book.sheet_names, sheet)
    grid = book.get_sheet_by_name(name).to_python(skip_empty_area=False, nrows=MAX_ROWS + 3)
    return name, [list(row) for row in grid], {}


def _pick(names: Sequence[str], sheet: str | None) -> str:
    if not names:
        raise _NoSheet(names)
    if sheet is None:
        return names[0]
    if sheet not in names:
        raise _NoSheet(names)
    return sheet


def _rows(grid: list[list[Any]], formulas: dict[tuple[int, int], str], table: Table, report: Report) -> list[Row]:
    """Return the sheet's non-blank rows as located rows, every row as wide as the widest (a grid has no ragged rows)."""
    width = max((_last(row) for row in grid), default=0)
    rows = []
    for r, row in enumerate(grid):
        texts = []
        for c in range(min(width, MAX_COLUMNS + 1)):
            value = row[c] if c < len(row) else None
            texts.append(_text(value, (r, c), formulas, table, report))
        if not any(t.strip() for t in texts):
            continue
        if width > MAX_COLUMNS:
            report.error("Y003", f"row has {width} cells; the limit is {MAX_COLUMNS} columns", loc=table.location(r, 0))
            continue
        rows.append(Row([(t, (r, c)) for c, t in enumerate(texts)], r, (r, width)))
    return rows


def _last(row: list[Any]) -> int:
    """Return how many cells the row has up to its last one that holds something."""
    for index in range(len(row) - 1, -1, -1):
        if row[index] is not None and row[index] != "":
            return index + 1
    return 0


def _text(value: Any, at: tuple[int, int], formulas: dict[tuple[int, int], str], table: Table, report: Report) -> str:
    """Return a cell as the text a CSV export of the sheet would hold; report a formula with no usable value."""
    formula = formulas.get(at)
    if value is None and formula:
        report.error(
            "C006",
            f"the formula {formula} has no saved value (the file was never calculated)",
            loc=table.location(*at),
            hint="open the workbook in a spreadsheet and save it: cardpress reads the values it shows",
        )
        return ""
    if isinstance(value, str) and value in ERRORS:
        report.error(
            "C006",
            f"the cell shows the error {value}" + (f" (its formula: {formula})" if formula else ""),
            loc=table.location(*at),
            hint="fix the formula in the spreadsheet: cardpress reads the values it shows",
        )
        return ""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)
