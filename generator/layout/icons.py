"""Vector icons defined as data (layouts/*/icons.yaml), turned into path outlines in a 100×100 box."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import CardpressError, Report
from ..source import schema, yamlsrc
from .outlines import KAPPA, Command
from .outlines import ellipse as ellipse  # shapes.ellipse draws the ellipse element


@dataclass(frozen=True)
class Paint:
    """One painted outline of an icon: filled (even-odd, so cut-outs become holes) or stroked."""

    commands: tuple[Command, ...]
    stroke: float | None = None  # line width in icon units; None means fill
    cap: str = "round"


@dataclass(frozen=True)
class Icon:
    """A named icon: paints in drawing order, in a 100×100 box with y pointing down."""

    name: str
    label: str
    paints: tuple[Paint, ...]


class IconSet:
    """Every icon visible to a game; later folders override earlier ones by name."""

    def __init__(self, icons: dict[str, Icon]):
        self._icons = icons

    def names(self) -> list[str]:
        """Return the icon names, sorted."""
        return sorted(self._icons)

    def get(self, name: str) -> Icon | None:
        """Return the icon called `name`, or None."""
        return self._icons.get(name)


_CACHE: dict[tuple[Any, ...], tuple[IconSet, Report]] = {}


def load_icons(folders: Sequence[Path], report: Report | None = None) -> IconSet:
    """Load icons.yaml from each folder (first folder wins on name clashes); cache by file stamps."""
    # any icons.yaml counts, one that cannot be read too (a FIFO, a loop of links): reading it says why
    files = [f / "icons.yaml" for f in folders if os.path.lexists(f / "icons.yaml")]
    drawn = [svg for f in files for svg in sorted(f.parent.glob("*.svg"))]  # SVG icons: a changed file reloads
    key = tuple((str(f), *_stamp(f)) for f in [*files, *drawn])
    if key not in _CACHE:
        _CACHE[key] = _parse(files)
    result, local = _CACHE[key]
    if report is not None:
        report.extend(local.items)
    elif not local.ok():
        raise CardpressError(local)
    return result


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:  # a loop of links, say: read (and refused) every time
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


def _not_finite(value: Any, at: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """Return where a NaN or infinity is in an icon's data (YAML's .nan, .inf), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return at
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return next((found for k, v in items if (found := _not_finite(v, (*at, k))) is not None), None)


def _parse(files: list[Path]) -> tuple[IconSet, Report]:
    """Parse icon files into an IconSet, with the problems found on the way."""
    local = Report()
    icons: dict[str, Icon] = {}
    for path in reversed(files):  # common first, so the game's own icons override
        display = _display(path)
        source = yamlsrc.load_file(path, display, local)
        if not local.ok() or not schema.check(source, "icons", local):
            continue
        bad = _not_finite(source.data, ())
        if bad is not None:
            local.error(
                "S004",
                "an icon's numbers must be finite, not NaN or infinity",
                path=yamlsrc.format_path(bad),
                loc=source.loc(bad),
            )
            continue
        for name, spec in source.data["icons"].items():
            paints: list[Paint] = []
            if "svg" in spec:  # drawn in a vector tool: the file beside icons.yaml
                from .svgicon import IconError, svg_paints  # here: the shipped games draw none

                at = ("icons", name, "svg")
                try:
                    found = svg_paints(path.parent / spec["svg"], path.parent)
                except IconError as exc:
                    local.error("L020", f"bad SVG icon: {exc}", path=yamlsrc.format_path(at), loc=source.loc(at))
                    continue
                paints = [Paint(commands, stroke, "round") for commands, stroke in found]
            for i, shape in enumerate(spec.get("shapes", ())):
                try:
                    commands = shape_commands(shape)
                except ValueError as exc:
                    where = ("icons", name, "shapes", i)
                    local.error("L020", f"bad shape: {exc}", path=yamlsrc.format_path(where), loc=source.loc(where))
                    continue
                if shape.get("cut") and paints and paints[-1].stroke is None:
                    paints[-1] = Paint(paints[-1].commands + commands)
                elif "line" in shape or shape.get("stroke"):
                    paints.append(Paint(commands, float(shape.get("stroke", 8)), shape.get("cap", "round")))
                else:
                    paints.append(Paint(commands))
            icons[name] = Icon(name, spec.get("label", name), tuple(paints))
    return IconSet(icons), local


def _display(path: Path) -> str:
    """Return where an icons file is, from the project: cards/<game>/layouts/icons.yaml or layouts/<x>/icons.yaml."""
    parts = path.parts
    if "layouts" not in parts:
        return str(path)
    at = len(parts) - 1 - parts[::-1].index("layouts")
    start = at - 2 if at >= 2 and parts[at - 2] == "cards" else at  # a game's own layouts/ is in its folder
    return "/".join(parts[start:])


def shape_commands(shape: dict[str, Any]) -> tuple[Command, ...]:
    """Return the outline of one icon shape as path commands."""
    if "circle" in shape:
        cx, cy, r = shape["circle"]
        return ellipse(cx, cy, r, r)
    if "rect" in shape:
        x, y, w, h, *rest = shape["rect"]
        return rounded_rect(x, y, w, h, rest[0] if rest else 0)
    if "poly" in shape:
        return polygon(shape["poly"])
    if "line" in shape:
        (x0, y0), *tail = shape["line"]
        return (("M", x0, y0), *(("L", x, y) for x, y in tail))
    if "gear" in shape:
        g = shape["gear"]
        return gear(g["cx"], g["cy"], g["r"], g["teeth"], g.get("depth", g["r"] * 0.22))
    if "star" in shape:
        s = shape["star"]
        return star(s["cx"], s["cy"], s["outer"], s["inner"], s["points"], s.get("rotate", 0))
    return parse_path(shape["path"])


def polygon(points: Iterable[Sequence[float]]) -> tuple[Command, ...]:
    """Return a closed polygon."""
    (x0, y0), *tail = list(points)
    return (("M", x0, y0), *(("L", x, y) for x, y in tail), ("Z",))


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> tuple[Command, ...]:
    """Return a rectangle whose corners are rounded by radius `r`."""
    r = max(0.0, min(r, w / 2, h / 2))
    if r == 0:
        return polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
    k = r * (1 - KAPPA)
    return (
        ("M", x + r, y),
        ("L", x + w - r, y),
        ("C", x + w - k, y, x + w, y + k, x + w, y + r),
        ("L", x + w, y + h - r),
        ("C", x + w, y + h - k, x + w - k, y + h, x + w - r, y + h),
        ("L", x + r, y + h),
        ("C", x + k, y + h, x, y + h - k, x, y + h - r),
        ("L", x, y + r),
        ("C", x, y + k, x + k, y, x + r, y),
        ("Z",),
    )


def gear(cx: float, cy: float, r: float, teeth: int, depth: float) -> tuple[Command, ...]:
    """Return a gear outline with trapezoid teeth; `r` is the tip radius."""
    points = []
    step = 2 * math.pi / teeth
    for i in range(teeth):
        a = i * step - math.pi / 2
        for frac, radius in ((-0.30, r - depth), (-0.17, r), (0.17, r), (0.30, r - depth)):
            points.append((cx + radius * math.cos(a + frac * step), cy + radius * math.sin(a + frac * step)))
    return polygon(points)


def star(cx: float, cy: float, outer: float, inner: float, points: int, rotate: float = 0) -> tuple[Command, ...]:
    """Return a star with `points` tips, the first pointing up (then turned by `rotate` degrees)."""
    out = []
    for i in range(points * 2):
        a = math.radians(rotate) - math.pi / 2 + i * math.pi / points
        radius = outer if i % 2 == 0 else inner
        out.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return polygon(out)


_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def parse_path(d: str) -> tuple[Command, ...]:
    """Parse SVG path data (all commands, absolute and relative) into M/L/C/Z commands."""
    tokens = _TOKEN.findall(d)
    if not tokens or re.sub(r"[\s,]", "", d) != "".join(tokens):
        raise ValueError("path data may hold only SVG path commands and numbers")
    out: list[Command] = []
    x = y = sx = sy = 0.0
    last_ctrl: tuple[float, float] | None = None
    last_q: tuple[float, float] | None = None
    cmd = None
    i = 0
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
        elif cmd is None:
            raise ValueError("path data must start with a command such as M")
        up = cmd.upper()
        rel = cmd.islower()
        n = _ARITY[up]
        raw = tokens[i : i + n]
        if len(raw) < n or any(t.isalpha() for t in raw):
            raise ValueError(f"command {cmd} needs {n} numbers")
        args = [float(t) for t in raw]
        i += n
        ox, oy = (x, y) if rel else (0.0, 0.0)
        ctrl, q = None, None
        if up == "M":
            x, y = ox + args[0], oy + args[1]
            sx, sy = x, y
            out.append(("M", x, y))
            cmd = "l" if rel else "L"  # extra coordinate pairs after M are line-tos
        elif up in ("L", "H", "V"):
            if up == "L":
                x, y = ox + args[0], oy + args[1]
            elif up == "H":
                x = ox + args[0]
            else:
                y = oy + args[0]
            out.append(("L", x, y))
        elif up in ("C", "S"):
            if up == "C":
                x1, y1, x2, y2, ex, ey = args
                x1, y1 = ox + x1, oy + y1
            else:
                x2, y2, ex, ey = args
                x1, y1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_ctrl else (x, y)
            x2, y2, ex, ey = ox + x2, oy + y2, ox + ex, oy + ey
            out.append(("C", x1, y1, x2, y2, ex, ey))
            ctrl = (x2, y2)
            x, y = ex, ey
        elif up in ("Q", "T"):
            if up == "Q":
                qx, qy, ex, ey = ox + args[0], oy + args[1], ox + args[2], oy + args[3]
            else:
                qx, qy = (2 * x - last_q[0], 2 * y - last_q[1]) if last_q else (x, y)
                ex, ey = ox + args[0], oy + args[1]
            out.append(
                (
                    "C",
                    x + 2 / 3 * (qx - x),
                    y + 2 / 3 * (qy - y),
                    ex + 2 / 3 * (qx - ex),
                    ey + 2 / 3 * (qy - ey),
                    ex,
                    ey,
                )
            )
            q = (qx, qy)
            x, y = ex, ey
        elif up == "A":
            rx, ry, rot, large, sweep, ex, ey = args
            ex, ey = ox + ex, oy + ey
            out.extend(_arc(x, y, rx, ry, rot, bool(large), bool(sweep), ex, ey))
            x, y = ex, ey
        else:  # Z takes no numbers, so a number right after it is an error, not a loop
            out.append(("Z",))
            x, y = sx, sy
            cmd = None
        last_ctrl, last_q = ctrl, q
    if not out or out[0][0] != "M":
        raise ValueError("path data must start with M")
    return tuple(out)


def _arc(
    x1: float, y1: float, rx: float, ry: float, rot: float, large: bool, sweep: bool, x2: float, y2: float
) -> list[Command]:
    """Convert an SVG elliptical arc to cubic curves (SVG spec, appendix F.6)."""
    if rx == 0 or ry == 0 or (x1, y1) == (x2, y2):
        return [("L", x2, y2)]
    rx, ry = abs(rx), abs(ry)
    phi = math.radians(rot)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = (x1p**2) / (rx**2) + (y1p**2) / (ry**2)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx**2 * ry**2 - rx**2 * y1p**2 - ry**2 * x1p**2
    den = rx**2 * y1p**2 + ry**2 * x1p**2
    coef = math.sqrt(max(0.0, num / den)) * (-1 if large == sweep else 1)
    cxp, cyp = coef * rx * y1p / ry, -coef * ry * x1p / rx
    cx = cos * cxp - sin * cyp + (x1 + x2) / 2
    cy = sin * cxp + cos * cyp + (y1 + y2) / 2

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    t1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
    dt = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
    if not sweep and dt > 0:
        dt -= 2 * math.pi
    elif sweep and dt < 0:
        dt += 2 * math.pi
    segments = max(1, math.ceil(abs(dt) / (math.pi / 2)))
    delta = dt / segments
    k = 4 / 3 * math.tan(delta / 4)
    out: list[Command] = []
    for s in range(segments):
        a1, a2 = t1 + s * delta, t1 + (s + 1) * delta
        p1 = (math.cos(a1) - k * math.sin(a1), math.sin(a1) + k * math.cos(a1))
        p2 = (math.cos(a2) + k * math.sin(a2), math.sin(a2) - k * math.cos(a2))
        p3 = (math.cos(a2), math.sin(a2))
        pts = []
        for px, py in (p1, p2, p3):
            px, py = px * rx, py * ry
            pts += [cos * px - sin * py + cx, sin * px + cos * py + cy]
        out.append(("C", *pts))
    return out
