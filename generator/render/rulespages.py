"""Typeset a game's rulebook.txt as printed rules pages with ReportLab platypus, and draw them.

The blocks `source.rulesdoc` reads (title, headings, paragraphs, lists, the worked example) become Paragraph
flowables in the game's fonts and palette, flowed into columns page by page: a heading keeps with what follows
it, a paragraph splits between columns without leaving a single line behind, and the worked example sits in a
tinted box. Inline icons print as the game's vector glyphs (with the symbol they stand for as invisible text,
so the PDF's text is still the rulebook's). Pages are laid out once and drawn on any canvas: the kit's, a
rules PDF's, or a booklet sheet's (see `impose.booklet`).
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape as _html_escape
from pathlib import Path
from typing import Any, Literal

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..impose import booklet
from ..kit import Kit, Rules, TextIcon
from ..layout.icons import IconSet
from ..layout.units import PT_PER_MM
from ..libpatterns import deferring
from ..source.rulesdoc import Block, parse
from .fonts import FontSet
from .rulesheets import (
    FORMATS,
    ICON_SIZE,
    InlineIcon,
    PageFormat,
    draw_sheet_side,
    inline_icons,
    rules_format,
)

with deferring():  # platypus compiles patterns at import that cardpress never uses (generator.libpatterns)
    from reportlab.platypus import Flowable, Paragraph
    from reportlab.platypus.flowables import HRFlowable

BLANK = str(Path(__file__).with_name("blank.png"))  # what an inline icon's <img> holds: its place, never drawn
_SRC = _html_escape(BLANK, quote=False).replace('"', "&quot;")  # as a markup attribute
GREY = "#6b6560"  # the kit furniture's grey: running heads are quieter than the text
_FE0F = "\ufe0f"  # emoji presentation selector: `♨️` is `♨`


def escape(text: str) -> str:
    """Return `text` with &, < and > written as markup entities (xml.sax's escape, without its urllib import)."""
    return _html_escape(text, quote=False)


@dataclass(frozen=True)
class Palette:
    """The colours the rules print in: text, headings and rules, the worked example's box."""

    ink: str
    accent: str
    tint: str


def palette(style: Mapping[str, Any]) -> Palette:
    """Return the rules' colours from a game's `style`: its ink and paper, and its `accent` or darkest colour."""
    colours = {k: v for k, v in style.items() if isinstance(v, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", v)}
    ink = colours.get("ink", "#222222")
    paper = colours.get("paper", "#f2efe8")
    others = [v for k, v in colours.items() if k not in ("ink", "paper")]
    accent = colours.get("accent") or (min(others, key=_luminance) if others else ink)
    if _luminance(accent) > 0.18:  # lighter would fall below 4.5:1 contrast on white paper (WCAG 2.x)
        accent = ink
    return Palette(ink, accent, paper if _luminance(paper) > 0.7 else "#f2efe8")


def _luminance(hex_colour: str) -> float:
    """Return the WCAG relative luminance of a #rrggbb colour."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


@dataclass
class _Item:
    """A flowable and the space it wants around it, in points; `keep` keeps it with the next one."""

    flowable: Flowable
    before: float = 0.0
    after: float = 0.0
    keep: bool = False


@dataclass
class _Placed:
    flowable: Flowable
    x: float
    y: float


@dataclass
class RulesBook:
    """A rulebook laid out as pages of one format, ready to draw on any canvas any number of times."""

    fmt: PageFormat
    title: str
    font: str  # the body font: a canvas of its own starts in it, so no unembedded base-14 font appears
    icons: IconSet | None = None
    pages: list[list[_Placed]] = field(default_factory=list)  # each page's text, placed
    marks: list[list[_Placed]] = field(default_factory=list)  # each page's running head and folio, placed
    title_height: float = 0.0  # points the title block takes across the top of page 1

    def __len__(self) -> int:
        return len(self.pages)

    def draw(self, canvas: Canvas, index: int) -> None:
        """Draw page `index` (0-based) with its bottom-left corner at the canvas's origin."""
        with inline_icons(canvas, self.icons):
            for placed in self.pages[index] + self.marks[index]:
                placed.flowable.drawOn(canvas, placed.x, placed.y)

    def frames(self, index: int) -> list[tuple[float, float, float, float]]:
        """Return the text columns of page `index` (0-based), in points (the first page's under its title)."""
        return self.fmt.frames(index + 1, self.title_height if index == 0 else 0.0)


class _Boxed(Flowable):
    """A block of the worked example: a paragraph on a tinted ground with an accent bar, splittable."""

    BAR = 1.2 * PT_PER_MM
    PAD = 2.2 * PT_PER_MM

    def __init__(self, inner: Flowable, tint: str, accent: str, top: float, bottom: float):
        super().__init__()
        self.inner, self.tint, self.accent, self.top, self.bottom = inner, tint, accent, top, bottom

    def _inner_width(self, width: float) -> float:
        return width - self.BAR - 2 * self.PAD

    def wrap(self, width: float, height: float) -> tuple[float, float]:
        _, h = self.inner.wrap(self._inner_width(width), max(0.0, height - self.top - self.bottom))
        self.width, self.height = width, h + self.top + self.bottom
        return self.width, self.height

    def split(self, width: float, height: float) -> list[Flowable]:
        room = height - self.top - self.PAD
        if room <= 0:
            return []
        parts = self.inner.split(self._inner_width(width), room)
        if len(parts) < 2:
            return []
        return [
            _Boxed(parts[0], self.tint, self.accent, self.top, self.PAD),
            *(_Boxed(p, self.tint, self.accent, self.PAD, self.bottom) for p in parts[1:]),
        ]

    def draw(self) -> None:
        c = self.canv
        c.saveState()
        c.setFillColor(HexColor(self.tint))
        c.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        c.setFillColor(HexColor(self.accent))
        c.rect(0, 0, self.BAR, self.height, stroke=0, fill=1)
        c.restoreState()
        self.inner.drawOn(c, self.BAR + self.PAD, self.bottom)


class _Typesetter:
    """Turns rulebook blocks into flowables for one format, in one game's fonts, palette and icons."""

    def __init__(self, fmt: PageFormat, fonts: FontSet, colours: Palette, text_icons: Sequence[TextIcon]):
        self.fmt, self.fonts, self.colours = fmt, fonts, colours
        self.body = fonts.resolve("body")
        self.bold = fonts.resolve("body", bold=True)
        self.italic = fonts.resolve("body", italic=True)
        self.display = fonts.resolve("display")
        self.condensed = fonts.resolve("condensed")
        self.icons = {i.text: i for i in text_icons}
        self.pattern = _icon_pattern(text_icons)
        size = fmt.body
        self.styles = {
            "paragraph": self._style("paragraph", self.body, size, size * 1.36, TA_JUSTIFY),
            "lead": self._style("lead", self.italic, size * 1.1, size * 1.5, TA_LEFT),
            "item": self._style("item", self.body, size, size * 1.36, TA_LEFT, indent=4.2),
            "title": self._style("title", self.display, size * 2.7, size * 2.9, TA_LEFT, colour=colours.accent),
            "kicker": self._style("kicker", self.condensed, size * 1.05, size * 1.3, TA_LEFT, colour=colours.accent),
            "heading1": self._style("heading1", self.display, size * 1.45, size * 1.6, TA_LEFT, colour=colours.accent),
            "heading2": self._style("heading2", self.display, size * 1.12, size * 1.3, TA_LEFT, colour=colours.ink),
            "head": self._style("head", self.condensed, 7.5, 9, TA_LEFT, colour=GREY),
            "folio": self._style("folio", self.display, 10, 12, TA_LEFT, colour=colours.accent),
        }

    def _style(
        self,
        name: str,
        font: str,
        size: float,
        leading: float,
        align: Literal[0, 4],
        colour: str | None = None,
        indent: float = 0.0,
    ) -> ParagraphStyle:
        return ParagraphStyle(
            name,
            fontName=font,
            fontSize=size,
            leading=leading,
            alignment=align,
            textColor=HexColor(colour or self.colours.ink),
            leftIndent=indent * PT_PER_MM,
            bulletIndent=0.6 * PT_PER_MM if indent else 0,
            bulletFontName=self.bold,
            bulletFontSize=size,
            bulletColor=HexColor(self.colours.accent),
            allowWidows=0,
            allowOrphans=0,
            splitLongWords=1,
        )

    def paragraph(
        self, text: str, style: str, lead: str = "", marker: str = "", align: Literal[0, 2] | None = None
    ) -> Paragraph:
        """Return a Paragraph of the rulebook's words: the lead in bold, fallback glyphs, inline icons."""
        st = self.styles[style]
        if align is not None:
            st = ParagraphStyle(f"{style}-{align}", parent=st, alignment=align)
        found: list[InlineIcon] = []
        body = text[len(lead) :] if lead else text
        colour = "#" + st.textColor.hexval()[2:]
        markup = (self._markup(lead, self.bold, st, colour, found) if lead else "") + self._markup(
            body, st.fontName, st, colour, found
        )
        para = Paragraph(markup, st, bulletText=marker or None)
        images = [f.cbDefn for f in para.frags if getattr(getattr(f, "cbDefn", None), "kind", "") == "img"]
        for defn, icon in zip(images, found, strict=True):
            defn.image = icon  # drawn by inline_icons where the <img> is placed
        return para

    def _markup(self, text: str, font: str, st: ParagraphStyle, colour: str, found: list[InlineIcon]) -> str:
        """Return Paragraph markup for plain text: `font` with fallback runs, and icons at their words."""
        out, pos, size, base = [], 0, st.fontSize, st.fontName
        for m in self.pattern.finditer(text) if self.pattern is not None else ():
            out.append(self._runs(text[pos : m.start()], font, base))
            word = m["symbol"] or m["word"]
            icon = self.icons[word.replace(_FE0F, "")]
            symbol = m["symbol"].replace(_FE0F, "") if m["symbol"] else ""
            if symbol and self.fonts.undrawable(symbol):  # no font has it: the icon alone says it
                symbol = ""
            shown = self.fonts.segments(symbol, font)[0][1] if symbol else font
            found.append(InlineIcon(icon.icon, icon.colour or colour, symbol, shown))
            side = size * ICON_SIZE
            out.append(f'<img src="{_SRC}" width="{side * 1.12:.2f}" height="{side * 0.8:.2f}" valign="baseline"/>')
            if m["amount"]:
                out.append(self._runs(m["amount"], font, base))
            pos = m.end() if m["symbol"] else m.start("word")
        out.append(self._runs(text[pos:], font, base))
        return "".join(out)

    def _runs(self, text: str, font: str, base: str) -> str:
        """Return escaped text in `font` (the paragraph is in `base`), what `font` lacks in the fallback font."""
        return "".join(
            escape(piece) if used == base else f'<font name="{used}">{escape(piece)}</font>'
            for piece, used in self.fonts.segments(text, font)
        )

    def items(self, blocks: Sequence[Block]) -> tuple[list[_Item], list[_Item]]:
        """Return (the title block's items, the body's items) for the blocks of a rulebook."""
        size = self.fmt.body
        head: list[_Item] = []
        body: list[_Item] = []
        heading_seen = lead_done = False
        for i, block in enumerate(blocks):
            nxt = blocks[i + 1] if i + 1 < len(blocks) else None
            if block.kind == "kicker":
                head.append(_Item(self.paragraph(block.text, "kicker"), after=2))
            elif block.kind == "title":
                head.append(_Item(self.paragraph(block.text, "title"), after=size * 0.6))
            elif block.kind == "heading":
                heading_seen = True
                style = "heading1" if block.level == 1 else "heading2"
                before = size * (1.5 if block.level == 1 else 1.0)
                body.append(_Item(self.paragraph(block.text, style), before, 1.5 if block.level == 1 else 2, keep=True))
                if block.level == 1:
                    rule = HRFlowable(width="100%", thickness=0.6, color=HexColor(self.colours.accent), spaceBefore=0)
                    body.append(_Item(rule, 0, size * 0.45, keep=True))
            elif not heading_seen and not lead_done and block.kind == "paragraph":  # the game in one sentence
                lead_done = True
                head.append(_Item(self.paragraph(block.text, "lead"), after=size * 0.3))
            else:
                kind = "item" if block.kind == "item" else "paragraph"
                para = self.paragraph(block.text, kind, block.lead, block.marker)
                after = size * (0.3 if kind == "item" and nxt is not None and nxt.kind == "item" else 0.55)
                if block.example:
                    first = i == 0 or not blocks[i - 1].example
                    last = nxt is None or not nxt.example
                    pad = _Boxed.PAD
                    boxed = _Boxed(
                        para,
                        self.colours.tint,
                        self.colours.accent,
                        pad if first else after / 2,
                        pad if last else after / 2,
                    )
                    body.append(_Item(boxed, size * 0.3 if first else 0, size * 0.7 if last else 0))
                else:
                    body.append(_Item(para, 0, after))
        return head, body


def _icon_pattern(text_icons: Sequence[TextIcon]) -> re.Pattern[str] | None:
    """Return the pattern of every icon's text: a symbol it replaces, or a word with the amount before it."""
    symbols = sorted((i.text for i in text_icons if i.replace), key=len, reverse=True)
    words = sorted((i.text for i in text_icons if not i.replace), key=len, reverse=True)
    alternatives = []
    if symbols:
        alternatives.append("(?P<symbol>(?:" + "|".join(map(re.escape, symbols)) + f"){_FE0F}?)")
    if words:
        alternatives.append(r"(?P<amount>\d+ )(?P<word>\b(?:" + "|".join(map(re.escape, words)) + r")\b)")
    if not alternatives:
        return None
    pattern = "|".join(alternatives)
    if not symbols:
        pattern += "|(?P<symbol>(?!))"
    if not words:
        pattern += "|(?P<amount>(?!))(?P<word>(?!))"
    return re.compile(pattern)


def rules_book(kit: Kit, paper: str, duplex: str, fonts: FontSet | None, icons: IconSet | None) -> RulesBook | None:
    """Return the kit's rulebook typeset for its rules pages on `paper`: as booklet pages when it folds, else
    full pages; None when the kit prints no rules (or without fonts to set them in)."""
    if kit.rules is None or fonts is None or icons is None:
        return None
    fmt = rules_format(kit, paper, duplex)
    return typeset(kit.rules, fmt, kit.title, kit.context.get("style", {}), kit.text_icons, fonts, icons)


def typeset(
    rules: Rules,
    fmt: str,
    title: str,
    style: Mapping[str, Any],
    text_icons: Sequence[TextIcon],
    fonts: FontSet,
    icons: IconSet,
) -> RulesBook:
    """Return the rulebook laid out as pages of format `fmt` (a key of FORMATS); laid out once per input."""
    colours = palette(style)
    return _typeset(rules, fmt, title, colours, tuple(text_icons), fonts, icons)


@functools.lru_cache(maxsize=32)
def _typeset(
    rules: Rules,
    fmt_name: str,
    title: str,
    colours: Palette,
    text_icons: tuple[TextIcon, ...],
    fonts: FontSet,
    icons: IconSet,
) -> RulesBook:
    fmt = FORMATS[fmt_name]
    setter = _Typesetter(fmt, fonts, colours, text_icons)
    head, body = setter.items(parse(rules.text, title))
    book = RulesBook(fmt, title, setter.body, icons)
    book.title_height = _place_title(book, head, colours.accent)
    _flow(book, body)
    _furnish(book, setter)
    return book


def _place_title(book: RulesBook, head: list[_Item], accent: str) -> float:
    """Place the title block across the top of page 1; return its height (with the rule under it)."""
    if not head:
        return 0.0
    fmt = book.fmt
    width = fmt.text_width
    x = fmt.inner * PT_PER_MM
    y = (fmt.h - fmt.top) * PT_PER_MM
    page: list[_Placed] = []
    for item in head:
        _, h = item.flowable.wrap(width, y)
        y -= h
        page.append(_Placed(item.flowable, x, y))
        y -= item.after
    y -= fmt.body * 0.3
    rule = HRFlowable(width=width, thickness=1.4, color=HexColor(accent), spaceBefore=0, spaceAfter=0)
    rule.wrap(width, 10)
    page.append(_Placed(rule, x, y))
    book.pages.append(page)
    return (fmt.h - fmt.top) * PT_PER_MM - y + fmt.body * 1.2


def _flow(book: RulesBook, items: list[_Item]) -> None:
    """Flow the body into the columns of page after page: headings keep with what follows, paragraphs split."""
    queue = list(items)
    index = 0
    while queue:
        if index >= len(book.pages):
            book.pages.append([])
        for x, bottom, width, height in book.frames(index):
            if _fill(book.pages[index], queue, x, bottom, width, height):
                break
        index += 1


def _fill(placed: list[_Placed], queue: list[_Item], x: float, bottom: float, width: float, height: float) -> bool:
    """Fill one column from the queue (taking what it places); return True when the queue is empty."""
    y, previous = bottom + height, None
    while queue:
        item = queue[0]
        group = _group(queue)  # a heading and its rule go together, with two lines of what follows
        gap = 0.0 if previous is None else max(previous.after, item.before)
        room = y - gap - bottom
        if len(group) > 1 or item.keep:
            need, heights = _group_height(queue, len(group), width, room)
            if need > room and previous is not None:
                return False
            for member, h in zip(group, heights, strict=True):
                y -= (0.0 if previous is None else max(previous.after, member.before)) + h
                placed.append(_Placed(member.flowable, x, y))
                previous = queue.pop(0)
            continue
        _, h = item.flowable.wrap(width, room)
        if h <= room or (previous is None and h > height and not item.flowable.split(width, room)):
            y -= gap + h  # fits; or taller than any column and unsplittable: placed all the same
            placed.append(_Placed(item.flowable, x, y))
            previous = queue.pop(0)
            continue
        parts = item.flowable.split(width, room)
        if len(parts) >= 2:
            parts[0].wrap(width, room)
            y -= gap + parts[0].height
            placed.append(_Placed(parts[0], x, y))
            queue[0] = _Item(parts[1], 0.0, item.after)
            queue[1:1] = [_Item(p, 0.0, item.after) for p in parts[2:]]
        return not queue
    return True


def _group(queue: list[_Item]) -> list[_Item]:
    """Return the items at the head of the queue that keep together: each keeping with the next, and the last."""
    n = 0
    while n < len(queue) and queue[n].keep:
        n += 1
    return queue[: max(n, 1)] if n else queue[:1]


def _group_height(queue: list[_Item], n: int, width: float, room: float) -> tuple[float, list[float]]:
    """Return the height the first `n` items need (with two lines of the item after them) and each one's."""
    need, heights, previous = 0.0, [], None
    for item in queue[:n]:
        _, h = item.flowable.wrap(width, max(room, 1.0))
        need += (0.0 if previous is None else max(previous.after, item.before)) + h
        heights.append(h)
        previous = item
    if n < len(queue):
        nxt = queue[n]
        _, h = nxt.flowable.wrap(width, max(room - need, 1.0))
        style = getattr(nxt.flowable, "style", None) or getattr(getattr(nxt.flowable, "inner", None), "style", None)
        # no line is left alone at a column's foot or head: a paragraph of three lines or fewer goes whole
        leading = style.leading if style is not None else h
        least = h if h <= 3.5 * leading else 2 * leading + getattr(nxt.flowable, "top", 0.0)
        need += max(previous.after if previous else 0.0, nxt.before) + least
    return need, heights


def _furnish(book: RulesBook, setter: _Typesetter) -> None:
    """Give every page its running head (the title, on the outer side) and its folio (page number, outer corner)."""
    fmt = book.fmt
    width = fmt.text_width
    for index in range(len(book.pages)):
        number = index + 1
        left = (fmt.inner if number % 2 else fmt.outer) * PT_PER_MM
        side: Literal[0, 2] = TA_RIGHT if number % 2 else TA_LEFT
        marks: list[_Placed] = []
        if index:  # page 1 has the title itself
            head = setter.paragraph(f"{book.title} · Rules", "head", align=side)
            head.wrap(width, 20)
            rule = HRFlowable(width=width, thickness=0.3, color=HexColor(GREY), spaceBefore=0, spaceAfter=0)
            rule.wrap(width, 5)
            marks += [
                _Placed(head, left, (fmt.h - fmt.top + 3.4) * PT_PER_MM),
                _Placed(rule, left, (fmt.h - fmt.top + 2.4) * PT_PER_MM),
            ]
        folio = setter.paragraph(str(number), "folio", align=side)
        folio.wrap(width, 20)
        marks.append(_Placed(folio, left, (fmt.bottom - 12.5) * PT_PER_MM))
        book.marks.append(marks)


def pdf(book: RulesBook, title: str, credits: str = "") -> bytes:
    """Return the rules as a PDF of their own, one page per page at the format's size."""
    fmt = book.fmt
    canvas = _canvas((fmt.w, fmt.h), f"{title}: rules ({fmt.label})", credits or title, book.font)
    for index in range(len(book)):
        book.draw(canvas, index)
        canvas.showPage()
    canvas.save()
    return canvas._rules_buffer.getvalue()  # type: ignore[attr-defined,no-any-return]


def booklet_pdf(
    book: RulesBook, paper: tuple[float, float], title: str, credits: str = "", duplex: str = "long"
) -> bytes:
    """Return the rules imposed as a booklet: each portrait `paper` side holds two pages, turned to fold."""
    canvas = _canvas(paper, f"{title}: rules booklet", credits or title, book.font)
    canvas.setViewerPreference("Duplex", "DuplexFlipShortEdge" if duplex == "short" else "DuplexFlipLongEdge")
    for side in booklet.slots(len(book), duplex):
        draw_sheet_side(canvas, book, paper, side)
        canvas.showPage()
    canvas.save()
    return canvas._rules_buffer.getvalue()  # type: ignore[attr-defined,no-any-return]


def _canvas(size: tuple[float, float], title: str, author: str, font: str) -> Canvas:
    buffer = io.BytesIO()
    rl_config.useA85 = 0
    canvas = Canvas(
        buffer,
        pagesize=(size[0] * PT_PER_MM, size[1] * PT_PER_MM),
        invariant=1,
        pageCompression=1,
        initialFontName=font,  # type: ignore[arg-type]  # the stubs say float
        initialFontSize=10,
    )
    canvas.setTitle(title)
    canvas.setAuthor(author)
    canvas.setCreator(f"cardpress {__version__}")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas._rules_buffer = buffer  # type: ignore[attr-defined]
    return canvas
