"""Rules pages as drawn, without typesetting: their formats, the inline icons a page draws, and how two pages
sit on a booklet sheet side. Drawing a laid-out rulebook needs only these, never platypus."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from reportlab.pdfgen.canvas import Canvas

from ..impose import booklet
from ..impose.booklet import folds
from ..kit import Kit
from ..layout.icons import IconSet
from ..layout.units import PT_PER_MM
from .draw import draw_icon
from .painters import PdfPainter

ICON_SIZE = 0.95  # of the font size: an inline icon's square, as on the cards


@dataclass(frozen=True)
class PageFormat:
    """A rules page: size and margins in mm (inner is the binding side), columns, body size in points."""

    name: str
    label: str
    w: float
    h: float
    top: float
    bottom: float
    inner: float
    outer: float
    columns: int
    gutter: float
    body: float

    def frames(self, number: int, title: float = 0.0) -> list[tuple[float, float, float, float]]:
        """Return the text columns of page `number` (1-based) as (x, y, w, h) in points from the bottom left,
        under a title block `title` points tall; odd pages have their binding on the left."""
        left = self.inner if number % 2 else self.outer
        width = (self.w - self.inner - self.outer - self.gutter * (self.columns - 1)) / self.columns
        y = self.bottom * PT_PER_MM
        h = (self.h - self.top - self.bottom) * PT_PER_MM - title
        return [((left + i * (width + self.gutter)) * PT_PER_MM, y, width * PT_PER_MM, h) for i in range(self.columns)]

    @property
    def text_width(self) -> float:
        """Return the width of the text block in points."""
        return (self.w - self.inner - self.outer) * PT_PER_MM


FORMATS = {
    "a4": PageFormat("a4", "A4", 210.0, 297.0, 20, 22, 17, 17, 2, 8, 9.5),
    "letter": PageFormat("letter", "US Letter", 215.9, 279.4, 19, 22, 17, 17, 2, 8, 9.5),
    "a5": PageFormat("a5", "A5", 148.5, 210.0, 16, 18, 15, 13, 1, 0, 9.0),
    "half-letter": PageFormat("half-letter", "half-Letter", 139.7, 215.9, 16, 18, 14, 12, 1, 0, 9.0),
}
BOOKLET_PAGE = {"a4": "a5", "letter": "half-letter"}  # a sheet of paper and the booklet page folded from it


@dataclass
class InlineIcon:
    """An inline icon in a paragraph: drawn where its <img> was placed, its symbol as invisible text."""

    name: str
    colour: str
    symbol: str  # the text it stands for ("" when it stands before a word it does not replace)
    font: str


class Book(Protocol):
    """A rulebook laid out as pages of one format: typeset (rulespages.RulesBook) or kept (keptrules.KeptBook)."""

    fmt: PageFormat

    def __len__(self) -> int: ...

    def draw(self, canvas: Canvas, index: int) -> None: ...


@contextmanager
def inline_icons(canvas: Canvas, icons: IconSet | None) -> Iterator[None]:
    """Draw each inline icon's <img> as the game's vector glyph, for as long as a rules page is drawn.

    Platypus places an <img> exactly, justified lines included, then asks the canvas to draw it; the
    canvas is asked here to draw an icon instead (every other image is drawn as usual).
    """
    original = canvas.drawImage
    painter = PdfPainter(canvas)

    def draw_image(
        image: Any, x: float, y: float, width: float | None = None, height: float | None = None, **kw: Any
    ) -> Any:
        if not isinstance(image, InlineIcon):
            return original(image, x, y, width, height, **kw)
        size = (height or 0.0) / 0.8  # the icon's square: its <img> reserves 1.12 of it across, 0.8 up
        if image.symbol:  # the symbol it stands for, invisible, so the page's text is still the rulebook's
            canvas.saveState()  # the render mode belongs to the graphics state: the paragraph's text stays visible
            text = canvas.beginText(x, y)
            text.setTextRenderMode(3)
            text.setFont(image.font, size / ICON_SIZE)
            drawn = canvas.stringWidth(image.symbol, image.font, size / ICON_SIZE)
            text.setHorizScale(100 * (width or drawn) / drawn)  # across the icon's room: no gap for a reader to see
            text.textOut(image.symbol)
            canvas.drawText(text)
            canvas.restoreState()
        if icons is not None:
            painter.begin(x + 0.06 * size, y + 0.86 * size)
            draw_icon(painter, icons, image.name, 0, 0, size / PT_PER_MM, image.colour)
            painter.end()
        return (width, height)

    setattr(canvas, "drawImage", draw_image)  # on this canvas only, while the page is drawn  # noqa: B010
    try:
        yield
    finally:
        delattr(canvas, "drawImage")  # the class's own again


def rules_format(kit: Kit, paper: str, duplex: str) -> str:
    """Return the format (a key of FORMATS) the kit's rules pages set in on `paper`: a booklet page when it folds."""
    return BOOKLET_PAGE[paper] if folds(kit, duplex) else paper


def rules_sides(kit: Kit, book: Book, duplex: str) -> list[tuple[booklet.Slot, booklet.Slot]]:
    """Return the booklet sheet sides the kit prints its rules on, or [] when it prints them as full pages."""
    if not folds(kit, duplex):
        return []  # a single-sided kit prints full pages
    return booklet.slots(len(book), booklet.SHORT if duplex == "short" else booklet.LONG)


def draw_sheet_side(
    canvas: Canvas, book: Book, paper: tuple[float, float], side: tuple[booklet.Slot, booklet.Slot]
) -> None:
    """Draw one booklet sheet side: two pages, each in its half of the portrait sheet, turned a quarter."""
    w, h = paper[0] * PT_PER_MM, paper[1] * PT_PER_MM
    half = h / 2
    page_w, page_h = book.fmt.w * PT_PER_MM, book.fmt.h * PT_PER_MM
    for slot in side:
        if slot.page is None:
            continue
        y0 = half if slot.half == "top" else 0.0
        canvas.saveState()
        # centre the page in its half: a booklet page is half the paper, give or take a rounding
        dx, dy = (w - page_h) / 2, (half - page_w) / 2
        if slot.turn == 90:  # the page's top faces the sheet's left edge
            canvas.translate(w - dx, y0 + dy)
            canvas.rotate(90)
        else:  # its top faces the right edge
            canvas.translate(dx, y0 + half - dy)
            canvas.rotate(-90)
        book.draw(canvas, slot.page)
        canvas.restoreState()
