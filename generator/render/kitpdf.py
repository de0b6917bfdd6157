"""Write a kit to one PDF for one paper size: cover, card sheets with duplex backs, full pages."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfdoc import PDFObject, PDFResourceDictionary
from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..impose.booklet import folds
from ..impose.plan import Imposition, PagePlan, Plan, card_runs
from ..impose.sheets import PAPERS, Mark, PrintOptions, Rect, Sheet, Side, footer
from ..impose.sizes import POKER
from ..kit import Face, Kit, Page
from ..layout.document import LayoutDoc
from ..layout.icons import IconSet
from ..layout.units import PT_PER_MM
from . import keptrules
from .draw import Prepared, draw
from .fonts import FontSet
from .painters import PdfPainter
from .rulesheets import draw_sheet_side, rules_sides

# Render a face template at a size: (face, width mm, height mm, extra context) -> Prepared or None.
Renderer = Callable[[Face, float, float, dict[str, Any]], "Prepared | None"]

DUPLEX_CHECK = "duplex-check.yaml.j2"
MARK_WIDTH = 0.2  # mm
MARK_HALO = 0.6  # mm of white under each mark, so marks show on dark bleed too
FOLD_DASH = (3.0, 2.0)  # mm on, mm off
CUT_COLOUR = "#3a3633"  # a token's cut path: dark enough to follow, on the token's own edge
FOLD_COLOUR = "#6b6560"  # the furniture's grey: a guide, quieter than the crop marks


def write(
    kit: Kit,
    imposition: Imposition,
    faces: dict[str, Prepared],
    render: Renderer,
    fonts: FontSet,
    icons: IconSet,
) -> bytes:
    """Return the PDF bytes of `kit` printed as `imposition` lays it out; `render` sets up per-paper page faces.

    The imposition (generator.impose.plan.impose) holds the paper, the print options (duplex edge or
    gutterfold, back offset, printer margin, declared grids) and every page's plan; nothing is laid out here.
    """
    paper, options, layout = imposition.paper, imposition.options, imposition.plan
    label, width, height = PAPERS[paper]
    buffer = io.BytesIO()
    rl_config.useA85 = 0  # binary streams: smaller files, same content
    canvas = Canvas(
        buffer,
        pagesize=(width * PT_PER_MM, height * PT_PER_MM),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.resolve(None),  # type: ignore[arg-type]  # the stubs say float
        initialFontSize=10,
    )
    canvas.setTitle(f"{kit.title}: print-and-play kit ({label})")
    canvas.setAuthor(kit.credits or kit.title)
    canvas.setSubject(f"{kit.title} for {kit.players} players, {label} paper")
    canvas.setCreator(f"cardpress {__version__}")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", options.viewer_duplex)
    writer = _Writer(kit, paper, label, layout, faces, render, fonts, icons, canvas, options)
    writer.rules = keptrules.rules_book(kit, paper, options.duplex, fonts, icons)
    writer.run()
    keptrules.keep(writer.rules)
    canvas.save()
    return buffer.getvalue()


class _Writer:
    """Draws the planned pages one by one: a card face printed more than once becomes one Form XObject
    placed for every copy, a face printed once is drawn in place (a form would only add bytes and time)."""

    def __init__(
        self,
        kit: Kit,
        paper: str,
        label: str,
        layout: Plan,
        faces: dict[str, Prepared],
        render: Renderer,
        fonts: FontSet,
        icons: IconSet,
        canvas: Canvas,
        options: PrintOptions,
    ):
        self.kit, self.paper, self.label, self.layout, self.options = kit, paper, label, layout, options
        self.faces, self.render, self.fonts, self.icons, self.c = faces, render, fonts, icons, canvas
        self.forms: dict[str, str] = {}
        self.uses = Counter(face.key for card in kit.cards for face in (card.front, card.back))  # each printed once
        self.marks: dict[Side, list[str]] = {}  # content-stream text of each sheet side's marks
        self.painter = PdfPainter(canvas)
        self.resources = _Resources()
        self.rules: keptrules.KeptBook | None = None  # the rulebook as the rules pages print it

    def run(self) -> None:
        for page, size, drawn in _full_pages(self.kit, self.layout, self.paper, self.options):
            self.c.setPageSize((size[0] * PT_PER_MM, size[1] * PT_PER_MM))
            self.c.setTrimBox(None)
            self.c.setBleedBox(None)
            if page.kind in ("fronts", "backs", "folded"):
                self._cards(page)
            elif page.kind == "rules":
                self._rules(page, size)
            for face, extra in drawn:
                if page.kind == "board" and page.page is not None and face is page.page.face:
                    self._board(page, face, extra)
                elif page.kind == "duplex" and face.template == DUPLEX_CHECK and self._moves_backs():
                    self.c.saveState()
                    self._as_a_back(size)
                    self._full_page(face, size, extra)
                    self.c.restoreState()
                else:
                    self._full_page(face, size, extra)
            self.c.showPage()

    def _rules(self, page: PagePlan, size: tuple[float, float]) -> None:
        book = self.rules
        assert book is not None  # the plan has rules pages only when the rulebook set into some
        sides = rules_sides(self.kit, book, self.options.duplex)
        if sides:
            draw_sheet_side(self.c, book, size, sides[page.sheet_no])
        else:
            book.draw(self.c, page.sheet_no)

    def _board(self, page: PagePlan, face: Face, extra: dict[str, Any]) -> None:
        """Draw the part of a board this page shows: the whole board once as a form, placed and clipped to
        the part's window, then the registration crosses and, dashed, where the neighbours' edges go."""
        part, board = page.part, page.page
        assert part is not None and board is not None and board.size is not None
        w, h = board.size
        height = PAPERS[self.paper][1] if part.landscape else PAPERS[self.paper][2]
        name = self.forms.get(face.key)
        if name is None:
            prepared = self.render(face, w, h, extra)
            if prepared is None:
                return
            name = f"face{len(self.forms)}"
            self.c.beginForm(name, 0, 0, w * PT_PER_MM, h * PT_PER_MM)
            self.painter.begin(0, h * PT_PER_MM)
            draw(prepared, self.painter, self.fonts, self.icons)
            self.painter.end()
            self.c.endForm(Resources=self._form_resources())
            self.forms[face.key] = name
        area, window, c = part.area, part.window, self.c
        c.saveState()
        path = c.beginPath()
        path.rect(area.x * PT_PER_MM, (height - area.bottom) * PT_PER_MM, area.w * PT_PER_MM, area.h * PT_PER_MM)
        c.clipPath(path, stroke=0, fill=0)
        # the board's bottom-left corner, on this page: the window's top-left lands on the area's
        c.translate((area.x - window.x) * PT_PER_MM, (height - (area.y - window.y) - h) * PT_PER_MM)
        c.doForm(name)
        c.restoreState()
        _marks(c, height, part.marks)
        _folds(c, height, part.edges)

    def _moves_backs(self) -> bool:
        return self.options.duplex == "short" or self.options.back_offset != (0.0, 0.0)

    def _as_a_back(self, size: tuple[float, float]) -> None:
        """Set up the duplex check page as a backs page is laid out: moved by the back offset and, for a
        short-edge flip, turned upside down so it reads upright and its crosshair lands behind page 1's."""
        dx, dy = self.options.back_offset
        short = self.options.duplex == "short"
        if short:  # the offset is measured as this page reads, which is upside down on the page
            dx, dy = -dx, -dy
        if dx or dy:
            self.c.translate(dx * PT_PER_MM, -dy * PT_PER_MM)
        if short:
            self.c.translate(size[0] * PT_PER_MM, size[1] * PT_PER_MM)
            self.c.rotate(180)

    def _full_page(self, face: Face, size: tuple[float, float], extra: dict[str, Any]) -> None:
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
        name = f"face{len(self.forms)}"
        self.c.beginForm(name, *_bleed_box(self.faces[face.key].doc))  # type: ignore[arg-type]  # the stubs say int
        self._draw_face(face)
        self.c.endForm(Resources=self._form_resources())
        self.forms[face.key] = name
        return name

    def _draw_face(self, face: Face) -> None:
        """Draw a card face with its trim's bottom-left corner at the current origin."""
        prepared = self.faces[face.key]
        self.painter.begin(0, prepared.doc.height * PT_PER_MM)
        draw(prepared, self.painter, self.fonts, self.icons)
        self.painter.end()

    def _form_resources(self) -> PDFObject:
        """Return the resources of the form just drawn: its art and, unlike ReportLab's own, the opacities it
        may set (a viewer looks a form's names up in the form's resources only); the shared one without."""
        c: Any = self.c  # ReportLab's stubs declare none of the attributes read here
        alphas = c._extgstate.getState()  # every opacity the document has set so far: a superset is harmless
        if not c._formsinuse and alphas is None:
            return self.resources
        resources = _resource_dictionary()
        if c._formsinuse:
            resources.XObject = c._doc.xobjDict(c._formsinuse)
        if alphas is not None:
            resources.ExtGState = alphas
        return resources  # type: ignore[no-any-return]

    def _cards(self, page: PagePlan) -> None:
        sheet, side = page.sheet, page.side
        assert sheet is not None and side is not None  # a page of cards has its grid and its side
        c = self.c
        for placed in side.placed:
            card = page.cards[placed.index]
            face = card.back if placed.back else card.front
            once = self.uses[face.key] == 1
            # A face printed once is drawn where it is printed, clipped as its form would be to its own bleed;
            # a face printed more than once becomes one form, placed for every copy.
            clip, doc = placed.clip, self.faces[face.key].doc
            if once:
                clip = clip.intersection(placed.trim.grow(doc.bleed, doc.bleed, doc.bleed, doc.bleed))
            c.saveState()
            path = c.beginPath()
            path.rect(
                clip.x * PT_PER_MM, (sheet.height - clip.bottom) * PT_PER_MM, clip.w * PT_PER_MM, clip.h * PT_PER_MM
            )
            c.clipPath(path, stroke=0, fill=0)
            _place(c, placed.trim, placed.turn, sheet.height)
            if once:  # marked with the box its form would have had, so the page still says where each card is
                c._code.append(f"/CardFace <</BBox [{fp_str(*_bleed_box(doc))}]>> BDC")  # type: ignore[attr-defined]
                self._draw_face(face)
                c._code.append("EMC")  # type: ignore[attr-defined]
            else:
                c.doForm(self._form(face))
            c.restoreState()
        self._boxes(side, sheet.height)
        code: list[str] = c._code  # type: ignore[attr-defined]  # ReportLab's content stream, not in its stubs
        # The marks of every full sheet of a run are the same: drawn once, their text repeated after (they
        # save and restore the graphics state, so the text alone repeats them).
        if side in self.marks:
            code.extend(self.marks[side])
        else:
            start = len(code)
            _marks(c, sheet.height, side.marks)
            _folds(c, sheet.height, side.folds)
            _cut_paths(c, sheet, side.cuts)
            self.marks[side] = code[start:]

    def _boxes(self, side: Side, height: float) -> None:
        self.c.setTrimBox(_box(side.trim, height))
        self.c.setBleedBox(_box(side.bleed_box, height))


class _Resources(PDFObject):
    """The resource dictionary of every form without art or opacity, formatted once, not once per form."""

    def __init__(self) -> None:
        self.text: bytes | None = None

    def format(self, document: Any) -> bytes:
        if self.text is None:
            self.text = _resource_dictionary().format(document)
        return self.text


def _resource_dictionary() -> Any:
    """Return the resources ReportLab gives a form: every font, every procedure set (Any: not in the stubs)."""
    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    return resources


def _bleed_box(doc: LayoutDoc) -> tuple[float, float, float, float]:
    """Return a card's trim grown by its bleed, in points from the trim's bottom-left: its form's BBox."""
    b = doc.bleed * PT_PER_MM
    return (-b, -b, doc.width * PT_PER_MM + b, doc.height * PT_PER_MM + b)


def _place(c: Canvas, trim: Rect, turn: int, page_height: float) -> None:
    """Move the origin to where a card form's (0, 0) goes so the card fills `trim` turned `turn` quarters."""
    x, y = trim.x * PT_PER_MM, (page_height - trim.bottom) * PT_PER_MM
    if turn == 0:
        c.translate(x, y)
        return
    w, h = trim.w * PT_PER_MM, trim.h * PT_PER_MM  # the slot on the page, the card's sides swapped if turned
    # One cm per card (not translate + rotate), so a reader sees where each card goes in one matrix.
    matrix = {1: (0, 1, -1, 0, x + w, y), 2: (-1, 0, 0, -1, x + w, y + h), 3: (0, -1, 1, 0, x, y + h)}[turn]
    c.transform(*matrix)


def _pages(layout: Plan, paper: str) -> Iterator[tuple[PagePlan, tuple[float, float], dict[str, Any]]]:
    """Yield (page plan, size in mm, the `page` context its templates see) for every page in order."""
    label, width, height = PAPERS[paper]
    total = len(layout.pages)
    for number, page in enumerate(layout.pages, 1):
        landscape = page.part.landscape if page.part else bool(page.page and page.page.landscape)
        size = (height, width) if landscape else (width, height)
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


def _full_pages(
    kit: Kit, layout: Plan, paper: str, options: PrintOptions
) -> Iterator[tuple[PagePlan, tuple[float, float], list[tuple[Face, dict[str, Any]]]]]:
    """Yield (page plan, size, [(face, extra context)]) for every page: the page-sized faces drawn on it
    in order (its own face for a cover, check page or component, then the sheet furniture)."""
    w, h = _cover_card(kit)
    cover = {
        "duplex": options.duplex,
        "game": kit.context,
        "title": kit.title,
        "players": kit.players,
        "contents": layout.contents,
        "rules": next((row["pages"] for row in layout.contents if row["title"] == "Rules"), ""),  # "3–6" or ""
        "card": {"w": w, "h": h},
        "credits": kit.credits,
    }
    spots: dict[tuple[Any, ...], tuple[dict[str, Any], dict[str, Any]]] = {}  # the same mappings for pages alike
    for page, size, info in _pages(layout, paper):
        drawn = []
        if page.kind == "page" and page.page is not None:
            drawn.append((page.page.face, {"page": info}))
        elif page.kind == "board" and page.page is not None and page.page.size:  # drawn whole, shown in part
            drawn.append((page.page.face, {"page": {**info, "w": page.page.size[0], "h": page.page.size[1]}}))
        elif page.kind in ("cover", "duplex"):
            template = "cover.yaml.j2" if page.kind == "cover" else DUPLEX_CHECK
            drawn.append((Face(template, cover, page.kind), {"page": info}))
        context = {**info, "credits": kit.credits, "title": kit.sheet_title or kit.title, "block": None}
        if page.sheet is not None and page.side is not None:
            # the footer sits in a margin between two crop marks, clear of the bleed and the printer margin
            spot = footer(page.sheet, page.side)
            # one pair of mappings for every page whose footer sits alike: its layout program's key is worked out once
            place = spots.setdefault(
                (page.side.trim, spot),
                (_rect(page.side.trim), {**_rect(spot.box), "rotate": spot.rotate, "valign": spot.valign}),
            )
            context.update(block=place[0], rows=page.sheet.rows, cols=page.sheet.cols, footer=place[1])
        if not (page.kind == "rules" and folds(kit, options.duplex)):  # no footer across a booklet's fold
            drawn.append((Face("furniture.yaml.j2", context, f"furniture-{info['number']}"), {}))
        yield page, size, drawn


def _cover_card(kit: Kit) -> tuple[float, float]:
    """Return the card the cover draws at trim size to check the scale: the kit's smallest, or a poker
    card when even that is taller (the cover keeps a poker card's height free for it; any card measured
    at its printed size proves the scale)."""
    cards = [size for (_, size), run in card_runs(kit).items() if run[0].shape == "rectangle"]  # not tokens
    smallest = min(cards or [POKER.mm], key=lambda s: (s[1], s[0]))
    return smallest if smallest[1] <= POKER.h and smallest[0] <= POKER.h else POKER.mm


def page_faces(
    kit: Kit, imposition: Imposition
) -> Iterator[tuple[PagePlan, Face, tuple[float, float], dict[str, Any]]]:
    """Yield (page plan, face, size, extra context) for every page-sized face the kit draws as imposed."""
    for page, size, drawn in _full_pages(kit, imposition.plan, imposition.paper, imposition.options):
        for face, extra in drawn:
            yield page, face, size, extra


def component_pages(kit: Kit, imposition: Imposition) -> list[tuple[Page, tuple[float, float], dict[str, Any]]]:
    """Return each full-page component (mat, record sheet) once, with its size and extra context."""
    seen: dict[str, tuple[Page, tuple[float, float], dict[str, Any]]] = {}
    for page, face, size, extra in page_faces(kit, imposition):
        if page.kind in ("page", "board") and page.page is not None and face is page.page.face:
            seen.setdefault(face.key, (page.page, size, extra))
    return list(seen.values())


def _rect(rect: Rect) -> dict[str, Any]:
    return {"x": rect.x, "y": rect.y, "w": rect.w, "h": rect.h}


def _box(rect: Rect, page_height: float) -> tuple[float, float, float, float]:
    """Return a PDF box (llx, lly, urx, ury) in points for a rectangle in layout space."""
    return (
        rect.x * PT_PER_MM,
        (page_height - rect.bottom) * PT_PER_MM,
        rect.right * PT_PER_MM,
        (page_height - rect.y) * PT_PER_MM,
    )


def _folds(c: Canvas, height: float, folds: tuple[Mark, ...]) -> None:
    """Draw every fold line dashed, so it reads as a fold, not a cut."""
    if not folds:
        return
    c.saveState()
    c.setLineCap(0)
    c.setStrokeColor(FOLD_COLOUR)
    c.setLineWidth(MARK_WIDTH * PT_PER_MM)
    c.setDash([d * PT_PER_MM for d in FOLD_DASH])
    for m in folds:
        c.line(m.x1 * PT_PER_MM, (height - m.y1) * PT_PER_MM, m.x2 * PT_PER_MM, (height - m.y2) * PT_PER_MM)
    c.restoreState()


def _cut_paths(c: Canvas, sheet: Sheet, cuts: Sequence[tuple[str, Rect]]) -> None:
    """Draw the line to cut each round or hex token along: a thin line on its trim (print-specs §3.3)."""
    if not cuts:
        return
    c.saveState()
    c.setStrokeColor(CUT_COLOUR)
    c.setLineWidth(MARK_WIDTH * PT_PER_MM)
    for shape, trim in cuts:
        x, y, w, h = (v * PT_PER_MM for v in (trim.x, sheet.height - trim.bottom, trim.w, trim.h))
        if shape == "circle":
            c.ellipse(x, y, x + w, y + h, stroke=1, fill=0)
            continue
        path = c.beginPath()  # a flat-topped hexagon touching the trim box on all four sides
        path.moveTo(x + w / 4, y)
        for px, py in (
            (x + 3 * w / 4, y),
            (x + w, y + h / 2),
            (x + 3 * w / 4, y + h),
            (x + w / 4, y + h),
            (x, y + h / 2),
        ):
            path.lineTo(px, py)
        path.close()
        c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def _marks(c: Canvas, height: float, marks: Sequence[Mark]) -> None:
    """Draw every crop mark: a white halo, then a thin black line."""
    c.saveState()
    c.setLineCap(0)
    for colour, width in (("#ffffff", MARK_HALO), ("#000000", MARK_WIDTH)):
        c.setStrokeColor(colour)
        c.setLineWidth(width * PT_PER_MM)
        for m in marks:
            c.line(m.x1 * PT_PER_MM, (height - m.y1) * PT_PER_MM, m.x2 * PT_PER_MM, (height - m.y2) * PT_PER_MM)
    c.restoreState()


__all__ = ["write", "page_faces", "component_pages", "Mark", "PrintOptions"]
