"""CSV tables that remember where every cell came from, the way yamlsrc does for YAML keys.

A table is read with the standard library's csv module; each cell keeps the line and column where it
starts, so a mistake in a cell is reported as `file:line:col` with a caret under the cell. The first
non-blank row names the columns. The result is a `yamlsrc.Source` whose data is one dict per row,
located by the key path `(row index, column name)`: whatever locates YAML values locates cells too.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Location, Report
from . import safefile
from .yamlsrc import MAX_BYTES, Source

MAX_ROWS = 2_000  # card rows in one table
MAX_COLUMNS = 100
MAX_CELL = 2_000  # characters in one cell, as for a text value in YAML
DELIMITERS = (",", ";", "\t")  # a header line's most frequent one wins: spreadsheets export all three
COLUMN_NAME = re.compile(r"^[a-z][a-z0-9_]{0,47}$")  # usable in a template as card.<name>
_NUMBER = re.compile(r"^[-+]?(\d+([.,]\d*)?|[.,]\d+)%?$")  # a cell a header never holds: a card's cost or count
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_NEWLINES = re.compile(r"\r\n?")
# C0 and C1 controls (tab and line breaks aside), surrogates and the non-characters U+FFFE and U+FFFF.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


@dataclass
class Table(Source):
    """A CSV file read into rows: `data` is a list of {column: cell text}; `values` locates each cell."""

    columns: list[str] = field(default_factory=list)
    header: dict[str, tuple[int, int]] = field(default_factory=dict)  # column -> (line, col) of its name
    header_line: int = 0  # 0-based
    lines: list[str] = field(default_factory=list)  # physical lines, without their ends
    delimiter: str = ","
    renamed: dict[str, str] = field(default_factory=dict)  # header text -> the column name it was read as

    def location(self, line: int, col: int) -> Location:
        """Return a Location for a 0-based line and column (lines split as csv splits them)."""
        text = self.lines[line] if 0 <= line < len(self.lines) else ""
        return Location(self.display, line + 1, col + 1, text)

    def column_loc(self, column: str) -> Location:
        """Return where the header names `column` (or the header line's end, for a column it lacks)."""
        if column in self.header:
            return self.location(*self.header[column])
        line = self.lines[self.header_line] if self.header_line < len(self.lines) else ""
        return self.location(self.header_line, len(line))

    def row_loc(self, index: int) -> Location:
        """Return where data row `index` starts."""
        return self.loc((index,))


def slug(text: str) -> str:
    """Return `text` as a column name: lower case, runs of other characters as one underscore."""
    return re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")


def load_file(
    path: Path, display: str, report: Report, roots: safefile.Roots | None = None, *, normalise: bool = False
) -> Table:
    """Read a CSV file; every problem is reported with its place, and rows with problems are left out.

    Like a YAML card file it must be a regular file inside `roots` (by default the project it lies in,
    links resolved first), at most MAX_BYTES: a link leading out, a FIFO or /dev/zero is refused unread.
    """
    try:
        raw = safefile.read_bytes(path, MAX_BYTES, roots)
    except safefile.Refused as exc:
        exc.report(report, display)
        return Table(display, "", data=[])
    kind = binary_kind(raw)
    if kind:
        report.error(
            "C004",
            f"this is {kind}, not a CSV table",
            loc=Location(display, 1, 1),
            hint="name the .xlsx or .ods file itself (a deck reads spreadsheets), or save the sheet as 'CSV UTF-8'"
            if raw.startswith(b"PK")
            else "a card table is a CSV file (UTF-8 text), an .xlsx or an .ods spreadsheet",
        )
        return Table(display, "", data=[])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start)
        start = raw.rfind(b"\n", 0, exc.start) + 1
        shown = raw[start : raw.find(b"\n", exc.start) if b"\n" in raw[exc.start :] else len(raw)]
        col = len(raw[start : exc.start].decode("utf-8", errors="replace"))
        loc = Location(display, line + 1, col + 1, shown.decode("utf-8", errors="replace").rstrip("\r"))
        report.error(
            "Y001",
            f"file is not UTF-8 text ({exc.reason} at byte {exc.start})",
            loc=loc,
            hint="save the sheet as 'CSV UTF-8' (spreadsheets offer it under Save as / Export)",
        )
        return Table(display, "", data=[])
    return load_text(text, display, report, normalise=normalise)


def binary_kind(raw: bytes) -> str:
    """Return what a file that is no text is, by its first bytes ('' for text): shown instead of its bytes."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return ""  # UTF-16 text: said to be no UTF-8, with the way to save it as such
    if raw.startswith(b"PK\x03\x04"):
        return "a zip archive (a spreadsheet such as .xlsx or .ods, by its content)"
    if raw.startswith(b"\xd0\xcf\x11\xe0"):
        return "an old binary Excel (.xls) or Office file"
    if b"\x00" in raw[:8192]:
        return "a binary file"
    return ""


def load_text(text: str, display: str, report: Report, *, normalise: bool = False) -> Table:
    """Parse CSV text (a leading byte-order mark is dropped) into a located table.

    With `normalise`, a one-line header's names are read as column names ('Flavour text' as flavour_text).
    """
    text = text.removeprefix("\ufeff")
    lines = [m.group(0) for m in _LINE.finditer(text)]
    table = Table(display, text, data=[], lines=[ln.rstrip("\r\n") for ln in lines])
    return read_rows(table, list(_rows(lines, table, report)), report, normalise=normalise)


def read_rows(table: Table, rows: list[Row], report: Report, *, normalise: bool = False) -> Table:
    """Read located rows (the first names the columns) into `table`: the header rules, bounds and cell checks
    every table follows, whether its rows came from a CSV file or a spreadsheet's sheet."""
    if not rows:
        report.error(
            "C002",
            "the table is empty: its first row must name the columns",
            loc=table.location(0, 0),
            hint="start with a header row such as: name,copies,text",
        )
        return table
    header, *body = rows
    if not _header(header, table, report, normalise and header.end[0] == header.line):
        return table
    if len(body) > MAX_ROWS:
        report.error(
            "Y003",
            f"table has {len(body)} rows; the limit is {MAX_ROWS}",
            loc=table.location(*body[MAX_ROWS].cells[0][1]),
        )
        body = body[:MAX_ROWS]
    wanted = len(header.cells)
    unnamed: set[int] = set()
    for row in body:
        if len(row.cells) > wanted and not any(v.strip() for v, _ in row.cells[wanted:]):
            row.cells = row.cells[:wanted]  # trailing empty cells: a spreadsheet's export, harmless
        if len(row.cells) != wanted:
            _ragged(row, table, report)
            continue
        index = len(table.data)
        record: dict[str, str] = {}
        table.values[(index,)] = row.cells[0][1]
        # most rows hold no character the checks below look for: one search of the whole row says so
        joined = "\n".join(value for value, _ in row.cells)
        plain = _UNPRINTABLE.search(joined) is None and "\r" not in joined
        for position, (name, (value, where)) in enumerate(zip(table.columns, row.cells)):
            if not name:
                if value.strip() and position not in unnamed:
                    unnamed.add(position)
                    report.error(
                        "C002",
                        "this cell's column has no name in the header row",
                        loc=table.location(*where),
                        hint="name the column in the first row, or leave its cells empty",
                    )
                continue  # an unnamed column left empty (spreadsheets export trailing separators)
            if len(value) > MAX_CELL:
                report.error(
                    "Y003",
                    f"cell is {len(value)} characters long; the limit is {MAX_CELL}",
                    path=name,
                    loc=table.location(*where),
                )
                value = value[:MAX_CELL]
            unprintable = None if plain else _UNPRINTABLE.search(value)
            if unprintable:
                char = unprintable.group()
                report.error(
                    "C007",
                    f"cell holds U+{ord(char):04X}, a control or non-character code that no font prints",
                    path=name,
                    loc=table.location(*where),
                    hint="remove it (it often comes from pasting out of a word processor or a badly decoded file)",
                )
            record[name] = value if plain else _NEWLINES.sub("\n", value)  # a quoted cell's line breaks, as \n
            table.values[(index, name)] = where
            table.keys[(index, name)] = where
        table.data.append(record)
    return table


@dataclass
class Row:
    """One record as csv read it, with where each of its cells starts (0-based line, col)."""

    cells: list[tuple[str, tuple[int, int]]]
    line: int
    end: tuple[int, int]  # where the record's last line ends


def _rows(lines: list[str], table: Table, report: Report) -> Iterator[Row]:
    """Yield the non-blank records of the table; a CSV syntax error is reported and ends the table."""
    first = next((ln for ln in lines if ln.strip()), "")
    delimiter = table.delimiter = max(DELIMITERS, key=lambda d: (first.count(d), -DELIMITERS.index(d)))
    consumed = [0]

    def feed() -> Iterator[str]:
        while consumed[0] < len(lines):
            consumed[0] += 1
            yield lines[consumed[0] - 1]

    reader = csv.reader(feed(), delimiter=delimiter, quotechar='"', doublequote=True, strict=True)
    count = 0
    while True:
        start = consumed[0]
        try:
            values = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            opened = _unclosed_quote(lines, start, delimiter)
            where = opened or (max(start, consumed[0] - 1), 0)
            report.error(
                "C001",
                f"CSV syntax error: {exc}",
                loc=table.location(*where),
                hint=(
                    'this quoted cell is never closed: add the closing "'
                    if opened
                    else 'quote a cell that holds the separator or a quote mark, and write a quote inside it as ""'
                ),
            )
            return
        if not any(v.strip() for v in values):
            continue  # a blank line, or a spreadsheet's row of empty cells
        count += 1
        if count > MAX_ROWS + 2:
            return  # enough to say the table is too long
        if len(values) > MAX_COLUMNS:
            report.error(
                "Y003",
                f"row has {len(values)} cells; the limit is {MAX_COLUMNS} columns",
                loc=table.location(start, 0),
            )
            continue
        starts = _cell_starts(lines, start, consumed[0], delimiter)
        if len(starts) != len(values):  # cannot happen for well-formed CSV; keep the row's start then
            starts = [(start, 0)] * len(values)
        last = consumed[0] - 1
        yield Row(list(zip(values, starts)), start, (last, len(lines[last].rstrip("\r\n"))))


def _cell_starts(lines: list[str], first: int, stop: int, delimiter: str) -> list[tuple[int, int]]:
    """Return the (line, col) where each cell of the record on lines[first:stop] starts."""
    if stop == first + 1 and '"' not in lines[first]:  # most records: one line, no quotes; the scan's result
        starts, col = [(first, 0)], 0
        for cell in _LINE_END.split(lines[first], 1)[0].split(delimiter)[:-1]:
            col += len(cell) + 1
            starts.append((first, col))
        return starts
    return _scan_cell_starts(lines, first, stop, delimiter)


_LINE_END = re.compile(r"[\r\n]")


def _scan_cell_starts(lines: list[str], first: int, stop: int, delimiter: str) -> list[tuple[int, int]]:
    """Return the (line, col) where each cell starts, character by character (quoted cells may hold anything)."""
    starts = [(first, 0)]
    quoted = False
    for number in range(first, stop):
        text = lines[number]
        col = 0
        while col < len(text):
            char = text[col]
            if char == '"':
                quoted = not quoted  # a doubled quote toggles twice: still inside
            elif char == delimiter and not quoted:
                starts.append((number, col + 1))
            elif char in "\r\n" and not quoted:
                break
            col += 1
    return starts


def _unclosed_quote(lines: list[str], first: int, delimiter: str) -> tuple[int, int] | None:
    """Return where the quoted cell that csv could not close opens, reading records from line `first` on.

    Reads as csv does (RFC 4180: a cell is quoted only when its first character is a quote; "" inside is
    one quote mark): a quoted cell still open at the end of the file, or whose closing quote is followed by
    anything but a separator or the line's end, is the one that was never closed.
    """
    opened: tuple[int, int] | None = None
    at_start = True  # at the first character of a cell
    for number in range(first, len(lines)):
        text = lines[number]
        col = 0
        while col < len(text):
            char = text[col]
            if opened is not None:
                if char == '"':
                    after = text[col + 1] if col + 1 < len(text) else "\n"
                    if after == '"':
                        col += 1  # a doubled quote: one quote mark inside the cell
                    elif after == delimiter or after in "\r\n":
                        opened = None
                    else:
                        return opened  # a quote inside the cell that ends nothing: the cell never closed
            elif char == '"' and at_start:
                opened = (number, col)
            at_start = opened is None and (char == delimiter or char in "\r\n")
            col += 1
        if opened is None:
            at_start = True  # a new record starts on the next line
    return opened


def _header(row: Row, table: Table, report: Report, normalise: bool = False) -> bool:
    """Read the header row into table.columns; return False when it names no usable column."""
    table.header_line = row.line
    names = [value.strip() for value, _ in row.cells]
    given = [n for n in names if n]
    # A spreadsheet's header may say 'Name' or 'Flavour text'; a number is never a column's name.
    good = sum(1 for n in given if COLUMN_NAME.match(slug(n)) and not _NUMBER.match(n))
    if good * 2 <= len(given) or any(_NUMBER.match(n) for n in given):  # a row of card data, not a header
        report.error(
            "C002",
            "the first row must name the columns; this one looks like a card",
            loc=table.location(row.line, 0),
            hint="add a header row such as: name,copies,text (lower-case names: letters, digits, _)",
        )
        return False
    if normalise:
        for position, name in enumerate(names):
            if name and not COLUMN_NAME.match(name) and COLUMN_NAME.match(slug(name)):
                table.renamed[name] = names[position] = slug(name)
    ok = True
    seen: dict[str, tuple[int, int]] = {}
    for name, (_, where) in zip(names, row.cells):
        if not name:
            continue  # reported below only when its column holds something
        if name in seen:
            report.error(
                "C002",
                f"column '{name}' is named twice (first at column {seen[name][1] + 1})",
                path=name,
                loc=table.location(*where),
                hint="rename one of them: each column is one field of the card",
            )
            ok = False
        elif not COLUMN_NAME.match(name):
            fixed = slug(name)
            report.error(
                "C002",
                f"'{name}' is not a column name",
                loc=table.location(*where),
                hint=(
                    f"write '{fixed}': column names are lower-case letters, digits and _, starting with a letter"
                    if fixed and COLUMN_NAME.match(fixed)
                    else "column names are lower-case letters, digits and _, starting with a letter"
                ),
            )
            ok = False
        seen.setdefault(name, where)
    table.columns = names
    table.header = {n: w for n, (_, w) in zip(names, row.cells) if n}
    return ok


def with_columns(table: Table) -> str:
    """Return the table's text with its (one-line) header row written as the column names it was read as."""
    lines = [m.group(0) for m in _LINE.finditer(table.text)]
    old = lines[table.header_line]
    lines[table.header_line] = table.delimiter.join(table.columns) + old[len(old.rstrip("\r\n")) :]
    return "".join(lines)


def _ragged(row: Row, table: Table, report: Report) -> None:
    """Report a row whose cell count differs from the header's."""
    wanted = len(table.columns)
    have = len(row.cells)
    if have > wanted:
        extra = row.cells[wanted]
        report.error(
            "C003",
            f"row has {have} cells; the header names {wanted} columns",
            loc=table.location(*extra[1]),
            hint='quote a cell that holds the separator, e.g. "Gain 2, then draw"',
        )
    else:
        missing = [n for n in table.columns[have:] if n]
        report.error(
            "C003",
            f"row has {have} cells; the header names {wanted} columns (no cell for {', '.join(missing)})",
            loc=table.location(*row.end),
            hint="add the missing cells (empty ones are fine: a separator each)",
        )
