"""CSV that a spreadsheet opens as data: a cell that would start a formula is neutralised (OWASP's rule).

Shop upload forms and their CSVs are opened in Excel, LibreOffice or Google Sheets, which run a cell that
starts with `=`, `+`, `-` or `@` (or a tab or carriage return before one) as a formula: a card named
`=HYPERLINK(…)` in a stranger's edition would be one. OWASP's CSV Injection page
(https://owasp.org/www-community/attacks/CSV_Injection) says to prefix such a cell with a single quote, which
spreadsheets read as "this is text" and do not show.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: object) -> object:
    """Return a text cell that would start a formula with a single quote before it; other values as given."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_bytes(rows: Iterable[Sequence[object]]) -> bytes:
    """Return UTF-8 CSV of the rows (LF line ends), every text cell neutralised.

    Quoted as RFC 4180 says (https://www.rfc-editor.org/rfc/rfc4180#section-2): a cell holding a comma, a quote
    or a line break, CR included, which Python's csv module leaves bare when lines end in LF.
    """
    return "".join(",".join(_quoted(str(neutralise(cell))) for cell in row) + "\n" for row in rows).encode("utf-8")


def _quoted(cell: str) -> str:
    return '"' + cell.replace('"', '""') + '"' if any(c in cell for c in ',"\r\n') else cell
