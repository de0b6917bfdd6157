"""Draw layout documents through a Painter: ReportLab for PDFs, a recorder for drawing logs."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from ..art.place import Placed
from ..layout import cpu
from ..layout import icons as shapes
from ..layout.document import Element, LayoutDoc, walk
from ..layout.icons import IconSet
from ..layout.markup import MarkupError, Run, parse
from ..layout.units import PT_PER_MM
from .fonts import FontSet, glyph_message
from .text import Line, Piece, TextLayout, set_text

BLACK = "#000000"
_T = TypeVar("_T")
SHAPES = frozenset({"rect", "ellipse", "polygon", "line", "path"})  # drawn from their own properties alone
Op = tuple[str, tuple[Any, ...]]  # one painter call of a drawn face: the method's name and its arguments


class Painter(Protocol):
    """Drawing operations in layout space: millimetres, y pointing down."""

    def save(self) -> None: ...
    def restore(self) -> None: ...
    def translate(self, dx: float, dy: float) -> None: ...
    def rotate(self, degrees: float) -> None: ...
    def scale(self, factor: float) -> None: ...
    def clip(self, commands: tuple[Any, ...]) -> None: ...
    def path(
        self,
        commands: tuple[Any, ...],
        *,
        fill: str | None,
        stroke: str | None,
        width: float,
        dash: list[float] | None = None,
        cap: str = "butt",
        opacity: float = 1.0,
    ) -> None: ...
    def text(
        self, x: float, y: float, text: str, font: str, size: float, colour: str, opacity: float = 1.0
    ) -> None: ...
    def image(self, placed: Placed, opacity: float = 1.0) -> None: ...
    def enter(self, el: Element) -> None:
        """Start drawing element `el` (what follows belongs to it until `leave`); painters that only draw ignore it."""

    def leave(self) -> None:
        """Finish the element `enter` started."""


_PieceState = tuple[float, float, float, str | None, str, str, str | None]  # a Piece's fields, in order
_TextState = tuple[tuple[tuple[tuple[_PieceState, ...], float], ...], float, float, float, float, str | None]
_State = tuple[LayoutDoc, dict[int, _TextState], dict[int, Placed], str, tuple[Op, ...] | None]  # pickled


@dataclass
class Prepared:
    """A layout document with its text already set, ready to draw any number of times."""

    doc: LayoutDoc
    texts: dict[int, TextLayout] = field(default_factory=dict)  # by id(element)
    images: dict[int, Placed] = field(default_factory=dict)  # by id(element); see generator.art.place
    digest: str = ""  # of every input that decides how it looks: names its proof in caches
    ops: tuple[Op, ...] | None = None  # the painter calls that draw it, recorded once (trace.record); None: walk it

    def fonts(self) -> set[str]:
        """Return the names of the fonts its text is set in."""
        return {
            piece.font for layout in self.texts.values() for line in layout.lines for piece in line.pieces if piece.font
        }

    def __getstate__(self) -> _State:
        """Key texts and images by their element's place in the document: ids do not survive a pickle (the
        elements the recorded calls name are pickled with the document, so they stay the same objects)."""
        place = {id(el): n for n, el in enumerate(walk(self.doc.elements))}
        texts = {place[k]: _text_state(v) for k, v in self.texts.items()}
        return self.doc, texts, {place[k]: v for k, v in self.images.items()}, self.digest, self.ops

    def __setstate__(self, state: _State) -> None:
        """Restore what `__getstate__` kept, keyed by the ids of the restored elements."""
        self.doc, texts, images, self.digest, self.ops = state
        elements = list(walk(self.doc.elements))
        self.texts = {id(elements[n]): _text_from(v) for n, v in texts.items()}
        self.images = {id(elements[n]): v for n, v in images.items()}


# A face kept on disk as plain values (tuples, dicts, text, numbers): `marshal` writes and reads those several
# times faster than pickle writes the objects, and most faces hold nothing else (art goes by pickle).
_ElementState = tuple[str, dict[str, Any], str, tuple[Any, ...]]


# A top-level element without children, kept apart with the calls that draw it (from `enter` at the index given
# to the next `leave`): the reference written in their place, or None to write them in the face's own plain values.
Part = Callable[[Element, tuple[Op, ...], int], "str | None"]


def to_plain(prepared: Prepared, part: Part | None = None) -> tuple[Any, ...] | None:
    """Return a prepared face as plain values that `from_plain` builds again; None when it places art. `part`
    may keep elements apart (faces of one layout program share their unchanged shapes)."""
    if prepared.images:
        return None
    doc = prepared.doc
    place = {id(el): n for n, el in enumerate(walk(doc.elements))}
    top = {id(el) for el in doc.elements if not el.children} if part is not None else set()
    refs: dict[int, str] = {}
    ops: list[Any] | None = None
    if prepared.ops is not None:
        ops = []
        drawn, skip = prepared.ops, False
        for at, (name, args) in enumerate(drawn):
            if skip:  # the calls of an element kept apart, up to its leave (it has no children to enter)
                skip = name != "leave"
                continue
            if name == "enter":  # the one call that names an element: by its place in the document
                el = args[0]
                n = place.get(id(el))
                if n is None:
                    return None
                ref = part(el, drawn, at) if part is not None and id(el) in top else None
                if ref is not None:
                    refs[id(el)] = ref
                    ops.append(ref)
                    skip = True
                    continue
                args = (n,)
            ops.append((name, args))
    elements = tuple([refs.get(id(el)) or _element_state(el) for el in doc.elements])
    texts = {place[k]: _text_state(v) for k, v in prepared.texts.items()}
    return doc.template, doc.face, doc.width, doc.height, doc.bleed, elements, texts, prepared.digest, ops


def from_plain(state: tuple[Any, ...], part: Callable[[str], tuple[Element, tuple[Op, ...]]] | None = None) -> Prepared:
    """Return the prepared face `to_plain` kept; `part` gives back each element (and its calls) kept apart."""
    template, face, width, height, bleed, elements, texts, digest, ops = state
    made: list[Element] = []  # in the order of walk(): each element before its children
    kept = {e: (part or _no_part)(e) for e in elements if type(e) is str}
    doc = built(
        LayoutDoc,
        {
            "template": template,
            "face": face,
            "width": width,
            "height": height,
            "bleed": bleed,
            "elements": tuple(
                [_element_from(e, made) if type(e) is not str else _kept(kept[e][0], made) for e in elements]
            ),
        },
    )
    drawn: tuple[Op, ...] | None = None
    if ops is not None:
        calls: list[Op] = []
        for op in ops:
            if type(op) is str:
                calls.extend(kept[op][1])
            else:
                calls.append(("enter", (made[op[1][0]],)) if op[0] == "enter" else op)
        drawn = tuple(calls)
    return Prepared(doc, {id(made[n]): _text_from(t) for n, t in texts.items()}, {}, digest, drawn)


def _no_part(part: str) -> tuple[Element, tuple[Op, ...]]:
    raise ValueError(f"a face names {part}, kept apart, with nowhere to read it from")


def _kept(el: Element, made: list[Element]) -> Element:
    made.append(el)
    return el


def part_state(el: Element, ops: tuple[Op, ...], at: int) -> tuple[Any, ...]:
    """Return an element without children and the calls that draw it (`ops` from the `enter` at `at` to the next
    `leave`) as plain values that `part_from` builds again."""
    end = at + [name for name, _ in ops[at:]].index("leave")
    return _element_state(el), (("enter", ()), *ops[at + 1 : end + 1])


def part_from(state: tuple[Any, ...]) -> tuple[Element, tuple[Op, ...]]:
    """Return the element and the calls `part_state` kept, the calls' `enter` naming that element."""
    element, ops = state
    el = _element_from(element, [])
    return el, tuple([(name, (el,)) if name == "enter" else (name, args) for name, args in ops])


def _element_state(el: Element) -> _ElementState:
    return el.kind, el.props, el.path, tuple([_element_state(child) for child in el.children])


def _element_from(state: _ElementState, made: list[Element]) -> Element:
    kind, props, path, children = state
    el = object.__new__(Element)
    made.append(el)  # before its children, as walk() gives them
    el.__dict__.update(
        {"kind": kind, "props": props, "path": path, "children": tuple([_element_from(c, made) for c in children])}
    )
    return el


# Set text goes into a pickle as tuples: a dataclass instance costs pickle several times what its fields do.
def _text_state(t: TextLayout) -> _TextState:
    """Return a set text's fields as nested tuples (`_text_from` builds it again)."""
    lines = tuple(
        (tuple([(p.x, p.width, p.size, p.colour, p.text, p.font, p.icon) for p in line.pieces]), line.width)
        for line in t.lines
    )
    return lines, t.size, t.line_height, t.ascent, t.height, t.overflow


def _text_from(state: _TextState) -> TextLayout:
    """Return the set text `_text_state` kept, built as unpickling builds a dataclass: its fields set directly."""
    lines, size, line_height, ascent, height, overflow = state
    return built(
        TextLayout,
        {
            "lines": tuple(
                [built(Line, {"pieces": tuple([_piece(p) for p in pieces]), "width": width}) for pieces, width in lines]
            ),
            "size": size,
            "line_height": line_height,
            "ascent": ascent,
            "height": height,
            "overflow": overflow,
        },
    )


def _piece(values: _PieceState) -> Piece:
    x, width, size, colour, text, font, icon = values
    return built(
        Piece, {"x": x, "width": width, "size": size, "colour": colour, "text": text, "font": font, "icon": icon}
    )


def built(cls: type[_T], state: dict[str, Any]) -> _T:
    """Return an instance of a frozen dataclass with `state` as its fields, without its (slower) __init__."""
    made = object.__new__(cls)
    made.__dict__.update(state)
    return made


@dataclass(frozen=True)
class Misfit:
    """A text element that cannot be set as asked: bad markup, an unknown family, overflow or undrawable text."""

    element: Element
    code: str
    message: str
    chars: str = ""  # F004: the characters no font draws, in order of first use (to find where they are written)


def prepare(doc: LayoutDoc, fonts: FontSet) -> tuple[Prepared, list[Misfit]]:
    """Set every text element once; return the result and every misfit."""
    prepared = Prepared(doc)
    problems: list[Misfit] = []
    _set_texts(doc.elements, prepared, fonts, problems)
    return prepared, problems


# A module function, not a closure: two nested functions calling each other are a reference cycle, which
# kept every face alive until the collector found it.
def _set_texts(elements: tuple[Element, ...], prepared: Prepared, fonts: FontSet, problems: list[Misfit]) -> None:
    """Set the text elements among `elements` (and their groups' children) into `prepared`."""
    for el in elements:
        try:
            if el.kind == "group":
                _set_texts(el.children, prepared, fonts, problems)
            elif el.kind == "text":
                _set_one(el, prepared, fonts, problems)
        except cpu.OverBudget as exc:
            exc.element = exc.element or el
            raise


def _set_one(el: Element, prepared: Prepared, fonts: FontSet, problems: list[Misfit]) -> None:
    """Set one text element into `prepared`, noting its misfits."""
    family = el.props.get("font")
    if family is not None and family not in fonts.families:
        families = ", ".join(sorted(fonts.families))
        problems.append(Misfit(el, "L100", f"unknown font family '{family}' (families: {families})"))
        family = None
    w, h = _text_box(el)
    p = el.props
    layout, bad, missing = _set_element(
        fonts,
        ("text", p["text"]) if "text" in p else ("rich", p.get("rich", "")),
        family,
        (p.get("size", 9.0), p.get("min_size"), w, h, p.get("leading", 1.2), p.get("max_lines")),
    )
    if bad:
        problems.append(Misfit(el, "L100", bad))
    if missing:
        problems.append(Misfit(el, "F004", glyph_message(*missing), missing[0]))
    prepared.texts[id(el)] = layout
    if layout.overflow:
        problems.append(Misfit(el, "L100", f"text overflows: {layout.overflow}"))


@lru_cache(maxsize=4096)  # the same words in the same box and font come back on card after card
def _set_element(
    fonts: FontSet, value: tuple[str, str], family: str | None, box: tuple[Any, ...]
) -> tuple[TextLayout, str | None, tuple[str, str] | None]:
    """Set a text element's `text` or `rich` value in its box.

    Return the layout, a markup problem or None, and (characters no font can draw, the fonts tried) or None.
    """
    size, min_size, w, h, leading, max_lines = box
    bad = None
    try:
        runs = _runs(*value)
    except MarkupError as exc:
        bad, runs = f"bad markup: {exc}", [Run(value[1])]
    layout = set_text(
        runs,
        fonts,
        family=family,
        size=size,
        min_size=min_size,
        width_mm=w,
        height_mm=h,
        leading=leading,
        max_lines=max_lines,
    )
    return layout, bad, _uncovered(runs, fonts, family)


def _uncovered(runs: list[Run], fonts: FontSet, family: str | None) -> tuple[str, str] | None:
    """Return the characters of `runs` that no font of the chain draws and the fonts tried, or None."""
    missing: dict[str, None] = {}
    tried = ""
    for run in runs:
        if run.text:
            chars = fonts.undrawable(run.text, family, run.style.bold, run.style.italic)
            if chars:
                missing.update(dict.fromkeys(chars))
                tried = tried or fonts.tried(family, run.style.bold, run.style.italic)
    return ("".join(missing), tried) if missing else None


def _runs(kind: str, value: str) -> list[Run]:
    """Return the runs of a text element's value (`text` is plain, `rich` is markup)."""
    if kind == "text":
        runs: list[Run] = []
        for i, line in enumerate(value.split("\n")):
            if i:
                runs.append(Run(newline=True))
            runs.append(Run(line))  # in the default style, which every run without one shares
        return runs
    return parse(value)


def _text_box(el: Element) -> tuple[float, float]:
    w, h = el.props["w"], el.props["h"]
    return (h, w) if el.props.get("rotate", 0) in (90, 270) else (w, h)


def draw(prepared: Prepared, painter: Painter, fonts: FontSet, icon_set: IconSet) -> None:
    """Draw a prepared layout document with its trim box's top-left at the painter's origin: replay the calls
    recorded when it was traced (what the lint read), or walk its elements when it was never traced."""
    if prepared.ops is None:
        walk_elements(prepared, painter, fonts, icon_set)
    else:
        replay(prepared.ops, painter)


def walk_elements(prepared: Prepared, painter: Painter, fonts: FontSet, icon_set: IconSet) -> None:
    """Draw a prepared layout document by walking its elements (what `draw` replays once recorded)."""
    draw_elements(prepared.doc.elements, prepared, painter, fonts, icon_set)


def replay(ops: tuple[Op, ...], painter: Painter) -> None:
    """Make the recorded painter calls `ops` on `painter`, in order."""
    calls = {name: getattr(painter, name) for name in _CALLS}
    path = painter.path
    for name, args in ops:
        if name == "path":
            commands, fill, stroke, width, dash, cap, opacity = args
            path(commands, fill=fill, stroke=stroke, width=width, dash=dash, cap=cap, opacity=opacity)
        else:
            calls[name](*args)


_CALLS = ("save", "restore", "translate", "rotate", "scale", "clip", "text", "image", "enter", "leave")


def draw_elements(
    elements: tuple[Element, ...], prepared: Prepared, painter: Painter, fonts: FontSet, icon_set: IconSet
) -> None:
    """Draw some of a prepared document's elements, each between the painter's `enter` and `leave`."""
    cpu.tick(len(elements))
    for el in elements:
        painter.enter(el)
        try:
            _draw(el, prepared, painter, fonts, icon_set)
        except cpu.OverBudget as exc:
            exc.element = exc.element or el
            raise
        painter.leave()


def _draw(el: Element, prepared: Prepared, painter: Painter, fonts: FontSet, icon_set: IconSet) -> None:
    p = el.props
    opacity = p.get("opacity", 1.0)
    kind = el.kind
    if kind == "rect":
        cmds = shapes.rounded_rect(p["x"], p["y"], p["w"], p["h"], p.get("radius", 0))
        _shape(painter, cmds, p, opacity)
    elif kind == "ellipse":
        _shape(painter, shapes.ellipse(p["cx"], p["cy"], p["rx"], p["ry"]), p, opacity)
    elif kind == "polygon":
        _shape(painter, shapes.polygon(p["points"]), p, opacity)
    elif kind == "line":
        (x0, y0), *rest = p["points"]
        cmds = (("M", x0, y0), *(("L", x, y) for x, y in rest))
        painter.path(
            cmds,
            fill=None,
            stroke=p.get("stroke", BLACK),
            width=p.get("stroke_width", 0.25),
            dash=p.get("dash"),
            cap=p.get("cap", "butt"),
            opacity=opacity,
        )
    elif kind == "path":
        vx, vy, vw, vh = p.get("viewbox", (0, 0, p["w"], p["h"]))
        painter.save()
        painter.translate(p["x"], p["y"])
        # Scale uniformly so stroke widths stay round; the viewbox width maps to w.
        painter.scale(p["w"] / vw)
        painter.translate(-vx, -vy)
        _shape(
            painter,
            shapes.parse_path(p["d"]),
            {**p, "stroke_width": p.get("stroke_width", 0.25) * vw / p["w"]},
            opacity,
        )
        painter.restore()
    elif kind == "icon":
        draw_icon(
            painter, icon_set, p["name"], p["x"], p["y"], p["size"], p.get("colour", BLACK), p.get("rotate", 0), opacity
        )
    elif kind == "text":
        _text(el, prepared.texts[id(el)], painter, icon_set)
    elif kind == "group":
        painter.save()
        _rotate_box(painter, p["x"], p["y"], p["w"], p["h"], p.get("rotate", 0))
        if p.get("clip"):
            w, h = (p["h"], p["w"]) if p.get("rotate", 0) in (90, 270) else (p["w"], p["h"])
            painter.clip(shapes.rounded_rect(0, 0, w, h, 0))
        draw_elements(el.children, prepared, painter, fonts, icon_set)
        painter.restore()
    elif kind == "image":
        placed = prepared.images.get(id(el))
        if placed is not None:
            painter.save()
            painter.clip(shapes.rounded_rect(*placed.box, placed.radius))
            if placed.art is None:
                draw_elements(placed.placeholder, prepared, painter, fonts, icon_set)
            else:
                painter.image(placed, opacity)
            painter.restore()
    elif kind == "pattern":
        _pattern(painter, icon_set, p, opacity)


def _pattern(painter: Painter, icon_set: IconSet, p: dict[str, Any], opacity: float) -> None:
    """Fill a box with a grid of one icon, clipped to the box.

    The grid is anchored at the trim's top-left corner, not at the box, so a pattern whose steps
    divide the card size runs on seamlessly from one card into its neighbour's bleed.
    """
    painter.save()
    painter.clip(shapes.rounded_rect(p["x"], p["y"], p["w"], p["h"], 0))
    size, dx, dy = p["size"], p["dx"], p["dy"]
    first_row, last_row = math.floor((p["y"] - size) / dy), math.ceil((p["y"] + p["h"]) / dy)
    for row in range(first_row, last_row + 1):
        cpu.tick()
        shift = dx / 2 if p.get("stagger") and row % 2 else 0.0
        first_col = math.floor((p["x"] - size - shift) / dx)
        last_col = math.ceil((p["x"] + p["w"] - shift) / dx)
        for col in range(first_col, last_col + 1):
            draw_icon(
                painter, icon_set, p["icon"], col * dx + shift, row * dy, size, p.get("colour", BLACK), opacity=opacity
            )
    painter.restore()


def _shape(painter: Painter, cmds: tuple[Any, ...], p: dict[str, Any], opacity: float) -> None:
    fill, stroke = p.get("fill"), p.get("stroke")
    if fill is None and stroke is None:
        fill = BLACK
    painter.path(cmds, fill=fill, stroke=stroke, width=p.get("stroke_width", 0.25), dash=p.get("dash"), opacity=opacity)


def _rotate_box(painter: Painter, x: float, y: float, w: float, h: float, rotate: int) -> None:
    """Move the origin so that content laid out upright in the (rotated) box lands in x, y, w, h."""
    if not rotate:
        painter.translate(x, y)
        return
    painter.translate(x + w / 2, y + h / 2)
    painter.rotate(rotate)
    inner_w, inner_h = (h, w) if rotate in (90, 270) else (w, h)
    painter.translate(-inner_w / 2, -inner_h / 2)


def draw_icon(
    painter: Painter,
    icon_set: IconSet,
    name: str,
    x: float,
    y: float,
    size: float,
    colour: str,
    rotate: float = 0,
    opacity: float = 1.0,
) -> None:
    """Draw icon `name` in a size × size box whose top-left is (x, y)."""
    icon = icon_set.get(name)
    painter.save()
    painter.translate(x + size / 2, y + size / 2)
    if rotate:
        painter.rotate(rotate)
    painter.scale(size / 100)
    painter.translate(-50, -50)
    if icon is None:  # lint reports the unknown name; draw a visible box so the gap is seen
        painter.path(shapes.rounded_rect(5, 5, 90, 90, 0), fill=None, stroke="#ff00ff", width=8)
    else:
        for paint in icon.paints:
            if paint.stroke is None:
                painter.path(paint.commands, fill=colour, stroke=None, width=0, opacity=opacity)
            else:
                painter.path(
                    paint.commands, fill=None, stroke=colour, width=paint.stroke, cap=paint.cap, opacity=opacity
                )
    painter.restore()


def _text(el: Element, layout: TextLayout, painter: Painter, icon_set: IconSet) -> None:
    p = el.props
    colour = p.get("colour", BLACK)
    painter.save()
    rotate = p.get("rotate", 0)
    _rotate_box(painter, p["x"], p["y"], p["w"], p["h"], rotate)
    w, h = _text_box(el)
    valign = p.get("valign", "top")  # top, middle or bottom: the schema allows no other
    if valign == "top":
        top = 0.0
    else:
        top = (h - layout.height / PT_PER_MM) / 2 if valign == "middle" else h - layout.height / PT_PER_MM
    baseline = top + layout.ascent / PT_PER_MM
    align = p.get("align", "left")  # left, center or right, as valign
    cpu.tick(len(layout.lines) // 8 + 1)
    for line in layout.lines:
        if align == "left":
            x0 = 0.0
        else:
            width = line.width / PT_PER_MM
            x0 = (w - width) / 2 if align == "center" else w - width
        for piece in line.pieces:
            x = x0 + piece.x / PT_PER_MM
            if piece.icon:
                size = piece.size * 0.95 / PT_PER_MM
                draw_icon(
                    painter,
                    icon_set,
                    piece.icon,
                    x,
                    baseline - size + piece.size * 0.1 / PT_PER_MM,
                    size,
                    piece.colour or colour,
                    opacity=p.get("opacity", 1.0),
                )
            else:
                painter.text(
                    x, baseline, piece.text, piece.font, piece.size, piece.colour or colour, p.get("opacity", 1.0)
                )
        baseline += layout.line_height / PT_PER_MM
    painter.restore()
