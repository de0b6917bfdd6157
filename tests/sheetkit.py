"""Write small .xlsx and .ods workbooks for the spreadsheet tests (made here, never committed as binaries)."""

from __future__ import annotations

import io
import zipfile
from xml.sax.saxutils import escape, quoteattr

import openpyxl

STAMP = (1980, 1, 1, 0, 0, 0)


class Formula:
    """A formula cell and the value a spreadsheet saved for it (None: never calculated)."""

    def __init__(self, formula: str, value: object = None) -> None:
        self.formula, self.value = formula, value


def xlsx(sheets: dict[str, list[list[object]]]) -> bytes:
    """Return an .xlsx workbook holding `sheets` ({name: rows}); a Formula keeps its saved value, as Excel's do."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    cached: dict[tuple[int, str], object] = {}
    for index, (name, rows) in enumerate(sheets.items()):
        sheet = book.create_sheet(name)
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row, start=1):
                if isinstance(value, Formula):
                    cell = sheet.cell(r, c, "=" + value.formula)
                    if value.value is not None:
                        cached[(index + 1, cell.coordinate)] = value.value
                elif value is not None:
                    sheet.cell(r, c, value)
    buf = io.BytesIO()
    book.save(buf)
    if not cached:
        return buf.getvalue()
    out = io.BytesIO()  # openpyxl saves no values for formulas: write the ones a spreadsheet would have saved
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            for (number, ref), value in cached.items():
                if item.filename == f"xl/worksheets/sheet{number}.xml":
                    text = data.decode()
                    start = text.index(f'<c r="{ref}"')
                    end = text.index("</c>", start)
                    data = (text[:start] + text[start:end].replace("<v></v>", f"<v>{value}</v>") + text[end:]).encode()
            dst.writestr(item, data)
    return out.getvalue()


def ods(sheets: dict[str, list[list[object]]]) -> bytes:
    """Return an .ods workbook holding `sheets`, cells typed as a spreadsheet saves them (a line per paragraph)."""
    tables = []
    for name, rows in sheets.items():
        body = []
        for row in rows:
            cells = []
            for value in row:
                if value is None:
                    cells.append("<table:table-cell/>")
                elif isinstance(value, Formula):
                    cells.append(
                        f"<table:table-cell table:formula={quoteattr('of:=' + value.formula)} "
                        f'office:value-type="float" office:value="{value.value}"><text:p>{value.value}</text:p>'
                        "</table:table-cell>"
                    )
                elif isinstance(value, (int, float)) and not isinstance(value, bool):
                    cells.append(
                        f'<table:table-cell office:value-type="float" office:value="{value}">'
                        f"<text:p>{value}</text:p></table:table-cell>"
                    )
                else:
                    paras = "".join(f"<text:p>{escape(p)}</text:p>" for p in str(value).split("\n"))
                    cells.append(f'<table:table-cell office:value-type="string">{paras}</table:table-cell>')
            body.append("<table:table-row>" + "".join(cells) + "</table:table-row>")
        tables.append(f"<table:table table:name={quoteattr(name)}>{''.join(body)}</table:table>")
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f"<office:body><office:spreadsheet>{''.join(tables)}</office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:  # the mimetype first and stored, as the OpenDocument package asks
        z.writestr(zipfile.ZipInfo("mimetype", STAMP), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr(zipfile.ZipInfo("META-INF/manifest.xml", STAMP), manifest, zipfile.ZIP_DEFLATED)
        z.writestr(zipfile.ZipInfo("content.xml", STAMP), content, zipfile.ZIP_DEFLATED)
    return buf.getvalue()
