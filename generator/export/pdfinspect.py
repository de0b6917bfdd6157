"""What a PDF really paints, read back from its content streams: every colour with the operator that
set it, every image with its pixels and placed size, every text run with its font, size and colour.

A small interpreter over pikepdf's parsed content: it follows the graphics state (q/Q, cm, colours,
line width, overprint through gs), the text state (Tf, Tm, Td) and form XObjects (their own Matrix and
resources), which is what a preflight needs to measure ink, resolution and black text on every page.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pikepdf

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
FILLS = {"f", "F", "f*", "B", "B*", "b", "b*"}
STROKES = {"S", "s", "B", "B*", "b", "b*"}
SHOWS = {"Tj", "TJ", "'", '"'}
COLOUR_OPS = {"k": "fill", "K": "stroke", "rg": "fill", "RG": "stroke", "g": "fill", "G": "stroke"}
SPACES = {
    "k": "DeviceCMYK",
    "K": "DeviceCMYK",
    "rg": "DeviceRGB",
    "RG": "DeviceRGB",
    "g": "DeviceGray",
    "G": "DeviceGray",
}


def multiply(a: Matrix, b: Matrix) -> Matrix:
    """Return a × b (PDF row-vector convention: a applies first)."""
    return (
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    )


@dataclass(frozen=True)
class Colour:
    """A colour as a content stream sets it: its space and components (0–1)."""

    space: str  # DeviceCMYK, DeviceRGB, DeviceGray, or the name a cs/CS operator chose
    values: tuple[float, ...]

    @property
    def ink(self) -> float | None:
        """Return the total ink (1 = 100 %) of a CMYK or grey colour, None for other spaces."""
        if self.space == "DeviceCMYK":
            return sum(self.values)
        if self.space == "DeviceGray":
            return 1 - self.values[0]
        return None


@dataclass
class _State:
    ctm: Matrix = IDENTITY
    fill: Colour = field(default_factory=lambda: Colour("DeviceGray", (0.0,)))
    stroke: Colour = field(default_factory=lambda: Colour("DeviceGray", (0.0,)))
    width: float = 1.0
    fill_overprint: bool = False
    stroke_overprint: bool = False
    font: str = ""
    font_size: float = 0.0


@dataclass(frozen=True)
class Paint:
    """One painted path: fill or stroke, its colour, its stroke width in page points, where."""

    page: int
    kind: str  # "fill" or "stroke"
    colour: Colour
    width_pt: float
    overprint: bool


@dataclass(frozen=True)
class Text:
    """One text-showing operator: its font (BaseFont), size in page points, fill colour, overprint."""

    page: int
    font: str
    size_pt: float
    colour: Colour
    overprint: bool


@dataclass(frozen=True)
class Image:
    """One image drawn: its object, colour space, pixels, placed size in page points and resolution."""

    page: int
    name: str
    obj: Any  # the pikepdf image stream
    colour_space: str
    pixels: tuple[int, int]
    placed_pt: tuple[float, float]

    @property
    def ppi(self) -> float:
        """Return the lower of the image's two resolutions at print size (pixels per inch)."""
        w, h = self.placed_pt
        return min(self.pixels[0] / max(w / 72, 1e-9), self.pixels[1] / max(h / 72, 1e-9))


@dataclass
class Painted:
    """Everything a document paints, page by page (pages numbered from 1)."""

    paints: list[Paint] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)


def _scale(m: Matrix) -> float:
    """Return the matrix's mean linear scale (square root of its determinant)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def painted(doc: pikepdf.Pdf) -> Painted:
    """Return every paint, text run and image of every page of `doc`."""
    out = Painted()
    for number, page in enumerate(doc.pages, 1):
        _run(page.obj, page.obj.get("/Resources"), _State(), number, out, depth=0)
    return out


def _space_name(value: Any) -> str:
    import pikepdf

    if isinstance(value, pikepdf.Array):
        return str(value[0]).lstrip("/")
    return str(value).lstrip("/")


def _run(stream: Any, resources: Any, state: _State, page: int, out: Painted, depth: int) -> None:
    import pikepdf

    if depth > 8:  # forms inside forms: shipped files nest one deep
        return
    stack: list[_State] = []
    tm: Matrix = IDENTITY
    line: Matrix = IDENTITY
    fill_space = stroke_space = "DeviceGray"
    for operands, op in _instructions(stream):
        name = str(op)
        if name == "q":
            stack.append(replace(state))
        elif name == "Q" and stack:
            state = stack.pop()
        elif name == "cm":
            state.ctm = multiply(tuple(float(v) for v in operands), state.ctm)  # type: ignore[arg-type]
        elif name in COLOUR_OPS:
            colour = Colour(SPACES[name], tuple(float(v) for v in operands))
            if COLOUR_OPS[name] == "fill":
                state.fill = colour
            else:
                state.stroke = colour
        elif name in ("cs", "CS"):
            space = _space_name(operands[0])
            if resources is not None and "/ColorSpace" in resources and operands[0] in resources.ColorSpace:
                space = _space_name(resources.ColorSpace[operands[0]])
            if name == "cs":
                fill_space = space
            else:
                stroke_space = space
        elif name in ("sc", "scn", "SC", "SCN"):
            values = tuple(float(v) for v in operands if isinstance(v, int | float | pikepdf.Object) and _numeric(v))
            if name in ("sc", "scn"):
                state.fill = Colour(fill_space, values)
            else:
                state.stroke = Colour(stroke_space, values)
        elif name == "w":
            state.width = float(operands[0])
        elif name == "gs" and resources is not None and "/ExtGState" in resources:
            gs = resources.ExtGState.get(operands[0])
            if gs is not None:
                if "/OP" in gs:
                    state.stroke_overprint = bool(gs.OP)
                    state.fill_overprint = bool(gs.get("/op", gs.OP))
                if "/op" in gs:
                    state.fill_overprint = bool(gs.op)
        elif name == "BT":
            tm = line = IDENTITY
        elif name == "Tm":
            tm = line = tuple(float(v) for v in operands)  # type: ignore[assignment]
        elif name in ("Td", "TD"):
            line = multiply((1, 0, 0, 1, float(operands[0]), float(operands[1])), line)
            tm = line
        elif name == "Tf":
            state.font = _font_name(resources, operands[0])
            state.font_size = float(operands[1])
        elif name in SHOWS:
            size = state.font_size * _scale(multiply(tm, state.ctm))
            out.texts.append(Text(page, state.font, size, state.fill, state.fill_overprint))
        elif name in FILLS or name in STROKES:
            if name in FILLS:
                out.paints.append(Paint(page, "fill", state.fill, 0.0, state.fill_overprint))
            if name in STROKES:
                width = state.width * _scale(state.ctm)
                out.paints.append(Paint(page, "stroke", state.stroke, width, state.stroke_overprint))
        elif name == "Do" and resources is not None and "/XObject" in resources:
            xobject = resources.XObject.get(operands[0])
            if xobject is None:
                continue
            if xobject.get("/Subtype") == "/Image":
                m = state.ctm
                out.images.append(
                    Image(
                        page,
                        str(operands[0]),
                        xobject,
                        _space_name(xobject.get("/ColorSpace", "/DeviceGray")),
                        (int(xobject.Width), int(xobject.Height)),
                        (math.hypot(m[0], m[1]), math.hypot(m[2], m[3])),
                    )
                )
            elif xobject.get("/Subtype") == "/Form":
                inner = replace(state)
                if "/Matrix" in xobject:
                    inner.ctm = multiply(tuple(float(v) for v in xobject.Matrix), state.ctm)  # type: ignore[arg-type]
                _run(xobject, xobject.get("/Resources", resources), inner, page, out, depth + 1)


def _numeric(value: Any) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def _instructions(stream: Any) -> Iterator[tuple[list[Any], Any]]:
    import pikepdf

    for item in pikepdf.parse_content_stream(stream):
        if isinstance(item, pikepdf.ContentStreamInlineImage):
            continue
        yield list(item.operands), item.operator


def _font_name(resources: Any, key: Any) -> str:
    if resources is None or "/Font" not in resources or key not in resources.Font:
        return str(key)
    return str(resources.Font[key].get("/BaseFont", key)).lstrip("/")


def image_ink(image: Image) -> float:
    """Return the most ink (1 = 100 %) any pixel of a CMYK or grey image asks for; 0 for other spaces."""
    import numpy as np
    import pikepdf

    pil = pikepdf.PdfImage(image.obj).as_pil_image()
    if pil.mode == "CMYK":
        return float(np.asarray(pil, dtype=np.float64).sum(axis=2).max() / 255)
    if pil.mode in ("L", "1"):
        return float(1 - np.asarray(pil.convert("L"), dtype=np.float64).min() / 255)
    return 0.0
