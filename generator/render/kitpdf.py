"""Write a kit to one PDF for one paper size: cover, card sheets with duplex backs, full pages."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..imposition import PAPERS, Mark, Sheet, card_sheet, paginate
from ..kit import Card, Face, Kit, Page
from ..layout.icons import IconSet
from ..units import PT_PER_MM
from .draw import Prepared, draw
from .fonts import FontSet
from .painters import PdfPainter

# Render a face template at a size: (face, width mm, height mm, extra context) -> Prepared or None.
Renderer = Callable[[Face, float, float, dict], "Prepared | None"]

MARK_WIDTH = 0.2  # mm
MARK_HALO = 0.6  # mm of white under each mark, so marks show on dark bleed too


@dataclass(frozen=True)
class PagePlan:
    """One page of the PDF and what goes on it."""

    kind: str  # cover, duplex, fronts, backs, page, blank
    label: str
    cards: tuple[Card, ...] = ()
    page: Page | None = None
    sheet_no: int = 0
    sheets: int = 0


@dataclass
class Plan:
    """Every page in order, plus the cover's table of contents."""

    pages: list[PagePlan] = field(default_factory=list)
    contents: list[dict] = field(default_factory=list)


def plan(kit: Kit, per_sheet: int) -> Plan:
    """Lay out the page order: cover and its back, each deck's sheets (fronts then backs), full pages."""
    result = Plan()
    result.pages += [PagePlan("cover", "print settings and calibration"), PagePlan("duplex", "duplex check")]
    result.contents.append({"pages": "1–2", "title": "This sheet", "detail": "print settings, duplex check and rulers"})
    decks: dict[str, list[Card]] = {}
    for card in kit.cards:
        decks.setdefault(card.deck, []).append(card)
    for deck, cards in decks.items():
        name = kit.decks.get(deck, deck)
        chunks = paginate(len(cards), per_sheet)
        first = len(result.pages) + 1
        for n, chunk in enumerate(chunks, 1):
            group = tuple(cards[i] for i in chunk)
            label = f"{name}, sheet {n} of {len(chunks)}"
            result.pages.append(PagePlan("fronts", f"{label}: fronts", group, sheet_no=n, sheets=len(chunks)))
            result.pages.append(PagePlan("backs", f"{label}: backs", group, sheet_no=n, sheets=len(chunks)))
        sheets = f"{len(chunks)} sheet{'s' if len(chunks) != 1 else ''}"
        result.contents.append(
            {
                "pages": f"{first}–{len(result.pages)}",
                "title": name[:1].upper() + name[1:],
                "detail": f"{len(cards)} cards on {sheets}, each fronts page followed by its backs",
            }
        )
    runs: dict[str, list[Page]] = {}
    for page in kit.pages:
        runs.setdefault(page.face.key, []).append(page)
    for pages in runs.values():
        first = len(result.pages) + 1
        for page in pages:
            result.pages += [PagePlan("page", page.name, page=page), PagePlan("blank", f"back of {page.name}")]
        count = f" × {len(pages)}" if len(pages) > 1 else ""
        title = pages[0].name.rstrip(" 0123456789") if len(pages) > 1 else pages[0].name
        result.contents.append(
            {
                "pages": f"{first}–{len(result.pages)}",
                "title": f"{title}{count}",
                "detail": "one per player, single-sided" if len(pages) > 1 else "single-sided",
            }
        )
    return result


def write(kit: Kit, paper: str, faces: dict[str, Prepared], render: Renderer, fonts: FontSet, icons: IconSet) -> bytes:
    """Return the PDF bytes of `kit` printed on `paper`; `render` sets up per-paper page faces."""
    label, width, height = PAPERS[paper]
    sheet = card_sheet(paper, kit.cards[0].size if kit.cards else (63.5, 88.9))
    layout = plan(kit, sheet.rows * sheet.cols)
    buffer = io.BytesIO()
    rl_config.useA85 = 0  # binary streams: smaller files, same content
    canvas = Canvas(
        buffer,
        pagesize=(width * PT_PER_MM, height * PT_PER_MM),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.resolve(None),
        initialFontSize=10,
    )
    canvas.setTitle(f"{kit.title}: print-and-play kit ({label})")
    canvas.setAuthor(kit.credits or kit.title)
    canvas.setSubject(f"{kit.title} for {kit.players} players, {label} paper")
    canvas.setCreator(f"cardpress {__version__}")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    writer = _Writer(kit, paper, label, sheet, layout, faces, render, fonts, icons, canvas)
    writer.run()
    canvas.save()
    return buffer.getvalue()


class _Writer:
    """Draws the planned pages one by one; each card face becomes one Form XObject."""

    def __init__(self, kit, paper, label, sheet: Sheet, layout: Plan, faces, render, fonts, icons, canvas):
        self.kit, self.paper, self.label, self.sheet, self.layout = kit, paper, label, sheet, layout
        self.faces, self.render, self.fonts, self.icons, self.c = faces, render, fonts, icons, canvas
        self.forms: dict[str, str] = {}
        self.painter = PdfPainter(canvas)

    def run(self) -> None:
        for page, size, drawn in _full_pages(self.kit, self.layout, self.sheet, self.label):
            self.c.setPageSize((size[0] * PT_PER_MM, size[1] * PT_PER_MM))
            self.c.setTrimBox(None)
            self.c.setBleedBox(None)
            if page.kind in ("fronts", "backs"):
                self._cards(page)
            for face, extra in drawn:
                self._full_page(face, size, extra)
            self.c.showPage()

    def _full_page(self, face: Face, size: tuple[float, float], extra: dict) -> None:
        prepared = self.render(face, size[0], size[1], extra)
        if prepared is None:
            return
        self.painter.begin(0, size[1] * PT_PER_MM)
        draw(prepared, self.painter, self.fonts, self.icons)
        self.painter.end()

    def _form(self, face: Face) -> str:
        """Return the name of the form that draws `face`, defining it on first use."""
        if face.key in self.forms:
            return self.forms[face.key]
        prepared = self.faces[face.key]
        doc = prepared.doc
        name = f"face{len(self.forms)}"
        b = doc.bleed * PT_PER_MM
        self.c.beginForm(name, -b, -b, doc.width * PT_PER_MM + b, doc.height * PT_PER_MM + b)
        self.painter.begin(0, doc.height * PT_PER_MM)
        draw(prepared, self.painter, self.fonts, self.icons)
        self.painter.end()
        self.c.endForm()
        self.forms[face.key] = name
        return name

    def _cards(self, page: PagePlan) -> None:
        sheet, back = self.sheet, page.kind == "backs"
        cells = [divmod(i, sheet.cols) for i in range(len(page.cards))]
        occupied = set(cells)
        for (row, col), card in zip(cells, page.cards):
            face = card.back if back else card.front
            name = self._form(face)
            trim = sheet.back_slot(row, col) if back else sheet.slot(row, col)
            clip = sheet.clip(row, col, occupied, back=back)
            c = self.c
            c.saveState()
            path = c.beginPath()
            path.rect(
                clip.x * PT_PER_MM, (sheet.height - clip.bottom) * PT_PER_MM, clip.w * PT_PER_MM, clip.h * PT_PER_MM
            )
            c.clipPath(path, stroke=0, fill=0)
            c.translate(trim.x * PT_PER_MM, (sheet.height - trim.bottom) * PT_PER_MM)
            c.doForm(name)
            c.restoreState()
        trim = sheet.used(len(page.cards))
        if back:
            trim = trim.mirrored(sheet.width)
        self.c.setTrimBox(_box(trim, sheet.height))
        self.c.setBleedBox(_box(trim.grow(sheet.bleed, sheet.bleed, sheet.bleed, sheet.bleed), sheet.height))
        marks = sheet.marks(len(page.cards))
        _marks(self.c, sheet, [m.mirrored(sheet.width) for m in marks] if back else marks)


def _pages(layout: Plan, sheet: Sheet, label: str):
    """Yield (page plan, size in mm, the `page` context its templates see) for every page in order."""
    total = len(layout.pages)
    for number, page in enumerate(layout.pages, 1):
        portrait = (sheet.width, sheet.height)
        size = (portrait[1], portrait[0]) if page.page and page.page.landscape else portrait
        yield (
            page,
            size,
            {
                "number": number,
                "total": total,
                "kind": page.kind,
                "label": page.label,
                "w": size[0],
                "h": size[1],
                "paper": label,
            },
        )


def _full_pages(kit: Kit, layout: Plan, sheet: Sheet, label: str):
    """Yield (page plan, size, [(face, extra context)]) for every page: the page-sized faces drawn on it
    in order (its own face for a cover, check page or component, then the sheet furniture)."""
    w, h = sheet.card
    cover = {
        "game": kit.context,
        "title": kit.title,
        "players": kit.players,
        "contents": layout.contents,
        "card": {"w": w, "h": h},
        "credits": kit.credits,
    }
    for page, size, info in _pages(layout, sheet, label):
        drawn = []
        if page.kind == "page":
            drawn.append((page.page.face, {"page": info}))
        elif page.kind in ("cover", "duplex"):
            template = "cover.yaml.j2" if page.kind == "cover" else "duplex-check.yaml.j2"
            drawn.append((Face(template, cover, page.kind), {"page": info}))
        context = {
            **info,
            "credits": kit.credits,
            "title": kit.sheet_title or kit.title,
            "block": _rect(sheet.block) if page.kind in ("fronts", "backs") else None,
        }
        drawn.append((Face("furniture.yaml.j2", context, f"furniture-{info['number']}"), {}))
        yield page, size, drawn


def page_faces(kit: Kit, paper: str):
    """Yield (page plan, face, size, extra context) for every page-sized face the kit draws on `paper`."""
    sheet = card_sheet(paper, kit.cards[0].size if kit.cards else (63.5, 88.9))
    for page, size, drawn in _full_pages(kit, plan(kit, sheet.rows * sheet.cols), sheet, PAPERS[paper][0]):
        for face, extra in drawn:
            yield page, face, size, extra


def component_pages(kit: Kit, paper: str) -> list[tuple[Page, tuple[float, float], dict]]:
    """Return each full-page component (mat, record sheet) once, with its size and extra context."""
    seen: dict[str, tuple[Page, tuple[float, float], dict]] = {}
    for page, face, size, extra in page_faces(kit, paper):
        if page.kind == "page" and face is page.page.face:
            seen.setdefault(face.key, (page.page, size, extra))
    return list(seen.values())


def _rect(rect) -> dict:
    return {"x": rect.x, "y": rect.y, "w": rect.w, "h": rect.h}


def _box(rect, page_height: float) -> tuple[float, float, float, float]:
    """Return a PDF box (llx, lly, urx, ury) in points for a rectangle in layout space."""
    return (
        rect.x * PT_PER_MM,
        (page_height - rect.bottom) * PT_PER_MM,
        rect.right * PT_PER_MM,
        (page_height - rect.y) * PT_PER_MM,
    )


def _marks(c: Canvas, sheet: Sheet, marks: list[Mark]) -> None:
    """Draw every crop mark: a white halo, then a thin black line."""
    c.saveState()
    c.setLineCap(0)
    for colour, width in (("#ffffff", MARK_HALO), ("#000000", MARK_WIDTH)):
        c.setStrokeColor(colour)
        c.setLineWidth(width * PT_PER_MM)
        for m in marks:
            c.line(
                m.x1 * PT_PER_MM, (sheet.height - m.y1) * PT_PER_MM, m.x2 * PT_PER_MM, (sheet.height - m.y2) * PT_PER_MM
            )
    c.restoreState()


__all__ = ["write", "plan", "page_faces", "component_pages", "Plan", "PagePlan", "Mark"]
