"""Write a kit to one PDF for one paper size: cover, card sheets with duplex backs, full pages."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfdoc import PDFObject, PDFResourceDictionary
from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..impose.sheets import PAPERS, Mark, PrintOptions, Rect, Sheet, Side, paginate, sheets_for
from ..impose.sizes import POKER, size_conflicts, size_label
from ..kit import Card, Face, Kit, Page
from ..layout.document import LayoutDoc
from ..layout.icons import IconSet
from ..layout.units import PT_PER_MM
from .draw import Prepared, draw
from .fonts import FontSet
from .painters import PdfPainter
from .rulespages import RulesBook, draw_sheet_side, rules_book, rules_sides

# Render a face template at a size: (face, width mm, height mm, extra context) -> Prepared or None.
Renderer = Callable[[Face, float, float, dict[str, Any]], "Prepared | None"]

DUPLEX_CHECK = "duplex-check.yaml.j2"
MARK_WIDTH = 0.2  # mm
MARK_HALO = 0.6  # mm of white under each mark, so marks show on dark bleed too
FOLD_DASH = (3.0, 2.0)  # mm on, mm off
FOLD_COLOUR = "#6b6560"  # the furniture's grey: a guide, quieter than the crop marks


@dataclass(frozen=True)
class PagePlan:
    """One page of the PDF and what goes on it."""

    kind: str  # cover, duplex, fronts, backs, page, blank, rules (a rules page or booklet sheet side: sheet_no)
    label: str
    cards: tuple[Card, ...] = ()
    page: Page | None = None
    sheet_no: int = 0
    sheets: int = 0
    sheet: Sheet | None = None  # the grid its cards are laid out on


@dataclass
class Plan:
    """Every page in order, plus the cover's table of contents."""

    pages: list[PagePlan] = field(default_factory=list)
    contents: list[dict[str, Any]] = field(default_factory=list)
    rules: RulesBook | None = None  # the rulebook typeset for the rules pages (booklet pages when folded)


def plan(
    kit: Kit, sheets: dict[tuple[str, tuple[float, float]], Sheet], duplex: str = "long", rules: RulesBook | None = None
) -> Plan:
    """Lay out the page order: cover and its back, rules pages, each deck's sheets (fronts then backs), full pages.

    `sheets` holds the grid of every (deck, card size) run, as `sheets_for` computes them. A gutterfold
    kit (`duplex` "gutterfold") prints single-sided: no duplex check, one page per sheet, no blank backs.
    `rules` is the rulebook as `rules_book` typesets it for this paper; the rules pages go where the game says.
    """
    fold = duplex == "gutterfold"
    result = Plan(rules=rules)
    result.pages.append(PagePlan("cover", "print settings and calibration"))
    if not fold:
        result.pages.append(PagePlan("duplex", "duplex check"))
    detail = "print settings and rulers" if fold else "print settings, duplex check and rulers"
    result.contents.append({"pages": _span(1, len(result.pages)), "title": "This sheet", "detail": detail})
    if kit.rules is not None and kit.rules.place == "after-cover":
        _rules_pages(result, kit, duplex)
    groups = card_runs(kit)
    mixed = len({size for _, size in groups}) > 1
    for (deck, size), cards in groups.items():
        sheet = sheets[deck, size]
        name = kit.decks.get(deck, deck)
        chunks = paginate(len(cards), sheet.per_sheet)
        first = len(result.pages) + 1
        for n, chunk in enumerate(chunks, 1):
            group = tuple(cards[i] for i in chunk)
            label = f"{name}, sheet {n} of {len(chunks)}"
            if fold:
                result.pages.append(PagePlan("folded", f"{label}: fold", group, None, n, len(chunks), sheet))
                continue
            result.pages.append(PagePlan("fronts", f"{label}: fronts", group, None, n, len(chunks), sheet))
            result.pages.append(PagePlan("backs", f"{label}: backs", group, None, n, len(chunks), sheet))
        sheets_text = f"{len(chunks)} sheet{'s' if len(chunks) != 1 else ''}"
        what = f"{len(cards)} cards ({size_label(cards[0].size)})" if mixed else f"{len(cards)} cards"
        how = "fronts beside their backs: fold, glue, cut" if fold else "each fronts page followed by its backs"
        result.contents.append(
            {
                "pages": _span(first, len(result.pages)),
                "title": name[:1].upper() + name[1:],
                "detail": f"{what} on {sheets_text}, {how}",
            }
        )
    runs: dict[str, list[Page]] = {}
    for page in kit.pages:
        runs.setdefault(page.face.key, []).append(page)
    for pages in runs.values():
        first = len(result.pages) + 1
        for page in pages:
            result.pages.append(PagePlan("page", page.name, page=page))
            if not fold:  # a blank back keeps the next page off this one's back in a duplex print
                result.pages.append(PagePlan("blank", f"back of {page.name}"))
        count = f" × {len(pages)}" if len(pages) > 1 else ""
        title = pages[0].name.rstrip(" 0123456789") if len(pages) > 1 else pages[0].name
        result.contents.append(
            {
                "pages": _span(first, len(result.pages)),
                "title": f"{title}{count}",
                "detail": "one per player, single-sided" if len(pages) > 1 else "single-sided",
            }
        )
    if kit.rules is not None and kit.rules.place == "end":
        _rules_pages(result, kit, duplex)
    return result


def _rules_pages(result: Plan, kit: Kit, duplex: str) -> None:
    """Add the rules pages (or booklet sheet sides) to the plan and their line to the contents."""
    book = result.rules
    if book is None:
        return
    first = len(result.pages) + 1
    sides = rules_sides(kit, book, duplex)
    if sides:  # a booklet: each sheet side holds two pages, turned to fold
        for n in range(len(sides)):
            face = "front" if n % 2 == 0 else "back"
            result.pages.append(
                PagePlan(
                    "rules",
                    f"rules booklet, sheet {n // 2 + 1} of {len(sides) // 2}: {face}",
                    sheet_no=n,
                    sheets=len(sides),
                )
            )
        detail = f"a booklet of {len(book)} {book.fmt.label} pages on {len(sides) // 2} sheets: print double-sided, fold in half"
    else:
        for n in range(len(book)):
            result.pages.append(PagePlan("rules", f"rules, page {n + 1} of {len(book)}", sheet_no=n, sheets=len(book)))
        if duplex != "gutterfold" and len(book) % 2:  # the next sheet's fronts start on a sheet of their own
            result.pages.append(PagePlan("blank", "back of the rules"))
        detail = f"{len(book)} page{'s' if len(book) != 1 else ''}" + (
            "" if duplex == "gutterfold" else ", double-sided"
        )
    result.contents.append({"pages": _span(first, len(result.pages)), "title": "Rules", "detail": detail})


def _span(first: int, last: int) -> str:
    """Return a page range as the cover prints it: '3–6', or '3' for one page."""
    return f"{first}–{last}" if last > first else f"{first}"


def card_runs(kit: Kit) -> dict[tuple[str, tuple[float, float]], list[Card]]:
    """Return the kit's cards grouped into sheet runs, one per deck and card size, in first-seen order."""
    runs: dict[tuple[str, tuple[float, float]], list[Card]] = {}
    for card in kit.cards:
        w, h = card.size
        runs.setdefault((card.deck, (w, h)), []).append(card)
    return runs


def kit_sheets(kit: Kit, paper: str, options: PrintOptions) -> dict[tuple[str, tuple[float, float]], Sheet]:
    """Return the grid of every sheet run of `kit` on `paper`; raise ValueError for a deck of mixed sizes
    (the build reports those first, as located diagnostics) and SheetError for a grid that cannot be."""
    conflicts = size_conflicts(kit.cards)
    if conflicts:
        raise ValueError("; ".join(c.message for c in conflicts))
    return sheets_for({run: cards[0].size for run, cards in card_runs(kit).items()}, paper, options)


def write(
    kit: Kit,
    paper: str,
    faces: dict[str, Prepared],
    render: Renderer,
    fonts: FontSet,
    icons: IconSet,
    options: PrintOptions | None = None,
) -> bytes:
    """Return the PDF bytes of `kit` printed on `paper`; `render` sets up per-paper page faces.

    `options` (a PrintOptions, defaults when None) chooses long- or short-edge duplex or gutterfold, a
    back offset to make up for a printer's drift, the printer margin and declared grids; see PrintOptions.
    Raises ValueError for a deck whose cards differ in size and SheetError for a grid that cannot be.
    """
    options = options or PrintOptions()
    label, width, height = PAPERS[paper]
    layout = plan(
        kit, kit_sheets(kit, paper, options), options.duplex, rules_book(kit, paper, options.duplex, fonts, icons)
    )
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
    writer.run()
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
        self.sides: dict[tuple[Sheet, int], tuple[Side, ...]] = {}
        self.marks: dict[tuple[tuple[Sheet, int], str], list[str]] = {}  # content-stream text by sheet side
        self.painter = PdfPainter(canvas)
        self.resources = _Resources()

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
                if page.kind == "duplex" and face.template == DUPLEX_CHECK and self._moves_backs():
                    self.c.saveState()
                    self._as_a_back(size)
                    self._full_page(face, size, extra)
                    self.c.restoreState()
                else:
                    self._full_page(face, size, extra)
            self.c.showPage()

    def _rules(self, page: PagePlan, size: tuple[float, float]) -> None:
        book = self.layout.rules
        assert book is not None  # a rules page is planned only with its rulebook
        sides = rules_sides(self.kit, book, self.options.duplex)
        if sides:
            draw_sheet_side(self.c, book, size, sides[page.sheet_no])
        else:
            book.draw(self.c, page.sheet_no)

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
        sheet = page.sheet
        assert sheet is not None  # a page of cards has its grid
        key = (sheet, len(page.cards))  # every full sheet of a run has the same sides: impose them once
        if key not in self.sides:
            self.sides[key] = sheet.sides(len(page.cards), self.options)  # (fronts, backs), or (folded,)
        sides = self.sides[key]
        side = sides[1] if page.kind == "backs" else sides[0]
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
        if (key, page.kind) in self.marks:
            code.extend(self.marks[key, page.kind])
        else:
            start = len(code)
            _marks(c, sheet, side.marks)
            _folds(c, sheet, side.folds)
            self.marks[key, page.kind] = code[start:]

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
        size = (height, width) if page.page and page.page.landscape else (width, height)
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
    for page, size, info in _pages(layout, paper):
        drawn = []
        if page.kind == "page" and page.page is not None:
            drawn.append((page.page.face, {"page": info}))
        elif page.kind in ("cover", "duplex"):
            template = "cover.yaml.j2" if page.kind == "cover" else DUPLEX_CHECK
            drawn.append((Face(template, cover, page.kind), {"page": info}))
        context = {**info, "credits": kit.credits, "title": kit.sheet_title or kit.title, "block": None}
        if page.sheet is not None:
            # the footer sits in a margin between two crop marks, so it needs the grid as well as the block;
            # on a gutterfold page, by the backs' block, in the right or bottom half
            block = page.sheet.block
            if page.kind == "folded":
                sheet = page.sheet
                block = block.mirrored(sheet.width) if sheet.fold == "vertical" else block.flipped(sheet.height)
            context.update(block=_rect(block), rows=page.sheet.rows, cols=page.sheet.cols)
        if not (page.kind == "rules" and layout.rules is not None and rules_sides(kit, layout.rules, options.duplex)):
            drawn.append((Face("furniture.yaml.j2", context, f"furniture-{info['number']}"), {}))  # not across a fold
        yield page, size, drawn


def _cover_card(kit: Kit) -> tuple[float, float]:
    """Return the card the cover draws at trim size to check the scale: the kit's smallest, or a poker
    card when even that is taller (the cover keeps a poker card's height free for it; any card measured
    at its printed size proves the scale)."""
    smallest = min([size for _, size in card_runs(kit)] or [POKER.mm], key=lambda s: (s[1], s[0]))
    return smallest if smallest[1] <= POKER.h and smallest[0] <= POKER.h else POKER.mm


def page_faces(
    kit: Kit,
    paper: str,
    options: PrintOptions | None = None,
    fonts: FontSet | None = None,
    icons: IconSet | None = None,
) -> Iterator[tuple[PagePlan, Face, tuple[float, float], dict[str, Any]]]:
    """Yield (page plan, face, size, extra context) for every page-sized face the kit draws on `paper`.

    With the kit's `fonts` and `icons` the rules pages are counted as `write` prints them; without, left out.
    """
    options = options or PrintOptions()
    book = rules_book(kit, paper, options.duplex, fonts, icons) if fonts is not None and icons is not None else None
    layout = plan(kit, kit_sheets(kit, paper, options), options.duplex, book)
    for page, size, drawn in _full_pages(kit, layout, paper, options):
        for face, extra in drawn:
            yield page, face, size, extra


def component_pages(
    kit: Kit,
    paper: str,
    options: PrintOptions | None = None,
    fonts: FontSet | None = None,
    icons: IconSet | None = None,
) -> list[tuple[Page, tuple[float, float], dict[str, Any]]]:
    """Return each full-page component (mat, record sheet) once, with its size and extra context."""
    seen: dict[str, tuple[Page, tuple[float, float], dict[str, Any]]] = {}
    for page, face, size, extra in page_faces(kit, paper, options, fonts, icons):
        if page.kind == "page" and page.page is not None and face is page.page.face:
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


def _folds(c: Canvas, sheet: Sheet, folds: tuple[Mark, ...]) -> None:
    """Draw every fold line dashed, so it reads as a fold, not a cut."""
    if not folds:
        return
    c.saveState()
    c.setLineCap(0)
    c.setStrokeColor(FOLD_COLOUR)
    c.setLineWidth(MARK_WIDTH * PT_PER_MM)
    c.setDash([d * PT_PER_MM for d in FOLD_DASH])
    for m in folds:
        c.line(m.x1 * PT_PER_MM, (sheet.height - m.y1) * PT_PER_MM, m.x2 * PT_PER_MM, (sheet.height - m.y2) * PT_PER_MM)
    c.restoreState()


def _marks(c: Canvas, sheet: Sheet, marks: Sequence[Mark]) -> None:
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


__all__ = [
    "write",
    "plan",
    "page_faces",
    "component_pages",
    "card_runs",
    "kit_sheets",
    "Plan",
    "PagePlan",
    "Mark",
    "PrintOptions",
]
