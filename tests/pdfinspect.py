"""Read back what cardpress put in a PDF: card placements, crop marks, text per region, fonts."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pdfplumber
from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4


@dataclass(frozen=True)
class Placement:
    """A card face drawn on a page: its form name and its trim's bottom-left corner, in mm from the page's top-left."""

    form: str
    x: float
    bottom: float


def placements(reader: PdfReader, index: int) -> list[Placement]:
    """Return every form placed on page `index` (each card face is one form)."""
    page = reader.pages[index]
    height = float(page.mediabox.height)
    out, tx, ty = [], 0.0, 0.0
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"cm":
            tx, ty = float(operands[4]), float(operands[5])
        elif op == b"Do":
            out.append(Placement(str(operands[0]), tx / MM, (height - ty) / MM))
    return out


def page_lines(pdf: pdfplumber.PDF, index: int) -> list[tuple[float, float, float, float]]:
    """Return straight lines drawn on the page itself, in mm from the top-left: (x0, top, x1, bottom)."""
    page = pdf.pages[index]
    return [(ln["x0"] / MM, ln["top"] / MM, ln["x1"] / MM, ln["bottom"] / MM) for ln in page.lines]


def normalize(text: str) -> str:
    """Collapse runs of whitespace, so text reads as one line whatever the line breaks."""
    return re.sub(r"\s+", " ", text).strip()


def text_in(pdf: pdfplumber.PDF, index: int, box_mm: tuple[float, float, float, float] | None = None) -> str:
    """Return the normalized text of a page, or of the part inside (x0, top, x1, bottom) in mm."""
    page = pdf.pages[index]
    if box_mm:
        x0, top, x1, bottom = box_mm
        page = page.within_bbox((x0 * MM, top * MM, x1 * MM, bottom * MM))
    return normalize(page.extract_text() or "")


def fonts(reader: PdfReader) -> set[tuple[str, str]]:
    """Return (BaseFont, embedded-file kind) for every font used anywhere, forms included."""
    found: set[tuple[str, str]] = set()
    seen: set[int] = set()

    def visit(resources) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            kind = "none"
            if descriptor is not None:
                descriptor = descriptor.get_object()
                kind = next((k for k in ("/FontFile2", "/FontFile3", "/FontFile") if k in descriptor), "none")
            found.add((str(font["/BaseFont"]), kind))
        for xobject in (resources.get("/XObject") or {}).values():
            ref = (
                xobject.indirect_reference.idnum
                if hasattr(xobject, "indirect_reference") and xobject.indirect_reference
                else id(xobject)
            )
            obj = xobject.get_object()
            if ref in seen:
                continue
            seen.add(ref)
            visit(obj.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found
