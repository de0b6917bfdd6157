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
    """A card face drawn on a page: its form name, its trim's bottom-left corner in mm from the page's
    top-left, the trim's width and height on the page, and its quarter turns counter-clockwise."""

    form: str
    x: float
    bottom: float
    w: float = 63.5
    h: float = 88.9
    turn: int = 0

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Return the trim on the page as (x0, top, x1, bottom) in mm, for `text_in`."""
        return (self.x, self.bottom - self.h, self.x + self.w, self.bottom)


TURNS = {(1, 0): 0, (0, 1): 1, (-1, 0): 2, (0, -1): 3}  # (a, b) of a card's matrix -> quarter turns


def placements(reader: PdfReader, index: int) -> list[Placement]:
    """Return every card face drawn on page `index`: a form placed (a face printed more than once), or a
    face drawn in place inside a /CardFace marked-content sequence that names the box its form would have."""
    page = reader.pages[index]
    height = float(page.mediabox.height)
    forms = page["/Resources"].get("/XObject") or {}
    out, matrix, inline = [], (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 0
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"cm":
            matrix = tuple(float(v) for v in operands)
            continue
        if op == b"Do" and forms[str(operands[0])].get_object()["/Subtype"] == "/Form":  # not art drawn in place
            name = str(operands[0])
            box = forms[name].get_object()["/BBox"]
        elif op == b"BDC" and operands[0] == "/CardFace":
            inline += 1
            name, box = f"inline{inline}", operands[1]["/BBox"]
        else:
            continue
        a, b, c, d, e, f = matrix
        # a card's box is its trim (0, 0)-(w, h) grown by the bleed b: (-b, -b, w + b, h + b)
        x0, y0, x1, y1 = (float(v) for v in box)
        w, h = x1 + x0, y1 + y0
        corners = [(a * x + c * y + e, b * x + d * y + f) for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        out.append(
            Placement(
                name,
                min(xs) / MM,
                (height - min(ys)) / MM,
                (max(xs) - min(xs)) / MM,
                (max(ys) - min(ys)) / MM,
                TURNS[round(a), round(b)],
            )
        )
    return out


def page_lines(pdf: pdfplumber.PDF, index: int) -> list[tuple[float, float, float, float]]:
    """Return straight lines drawn on the page itself, in mm from the top-left: (x0, top, x1, bottom)."""
    page = pdf.pages[index]
    return [(ln["x0"] / MM, ln["top"] / MM, ln["x1"] / MM, ln["bottom"] / MM) for ln in page.lines]


def normalize(text: str) -> str:
    """Collapse runs of whitespace, so text reads as one line whatever the line breaks."""
    return re.sub(r"\s+", " ", text).strip()


# quarter turns of a card -> (line, character) reading directions of its text on the page
DIRECTIONS = {0: ("ttb", "ltr"), 1: ("ltr", "btt"), 3: ("rtl", "ttb")}


def text_in(
    pdf: pdfplumber.PDF, index: int, box_mm: tuple[float, float, float, float] | None = None, turn: int = 0
) -> str:
    """Return the normalized text of a page, or of the part inside (x0, top, x1, bottom) in mm, read
    as a card turned `turn` quarter turns counter-clockwise reads."""
    page = pdf.pages[index]
    if box_mm:
        x0, top, x1, bottom = box_mm
        page = page.within_bbox((x0 * MM, top * MM, x1 * MM, bottom * MM))
    if turn == 2:  # upside-down text counts as upright to pdfplumber: read it as it lies, then backwards
        return normalize(page.extract_text() or "")[::-1]
    line, char = DIRECTIONS[turn]
    if turn % 2:  # pdfplumber reads text turned a quarter as "rotated"
        return normalize(page.extract_text(line_dir_rotated=line, char_dir_rotated=char) or "")
    return normalize(page.extract_text(line_dir=line, char_dir=char) or "")


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
