"""Whether printed text can be read, judged on a traced face: set lines that collide, text below the
minimum size, text that stands out too little from what is behind it."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from ..diagnostics import Diagnostic, Location
from . import contrast, cpu, inks
from .boxes import Box, union
from .document import Element
from .ink import Mark
from .limits import Thresholds

TOUCH = 0.05  # mm: set lines that overlap less than this in either direction only touch
SAMPLE = 0.8  # mm between the points where the backdrop of a text is sampled
PAPER = "#ffffff"  # what shows where nothing is drawn
LARGE_PT, LARGE_BOLD_PT = 18.0, 14.0  # WCAG "large text": 18 pt, or 14 pt bold
SHARP_TEXT_PT = 9.0  # text below this prints fuzzy on three or four plates that do not register exactly
SHARP_PLATES = 2  # the most plates small text may print on


@dataclass(frozen=True)
class Finding:
    """One layout problem: the element to locate it at, a code, a message naming the element, a severity."""

    element: Element
    code: str
    message: str
    severity: str = "error"
    hint: str | None = None

    def diagnostic(self, face: str, loc: Location | None) -> Diagnostic:
        """Return the finding as a diagnostic about `face`, located at `loc`."""
        return Diagnostic(self.severity, self.code, f"{face}: {self.message}", loc=loc, hint=self.hint)


def ref(el: Element) -> str:
    """Return how messages name an element: its id in quotes, or its kind and place in the document."""
    return f"'{el.props['id']}'" if el.props.get("id") else el.name


def kind_ref(el: Element) -> str:
    """Return an element named with its kind: "icon 'gear'", or "icon at elements[3]"."""
    return f"{el.kind} '{el.props['id']}'" if el.props.get("id") else el.name


def _by_element(ink: Iterable[Mark]) -> dict[int, tuple[Element, list[Mark]]]:
    """Group marks by the element they belong to, in drawing order."""
    groups: dict[int, tuple[Element, list[Mark]]] = {}
    for mark in ink:
        groups.setdefault(id(mark.element), (mark.element, []))[1].append(mark)
    return groups


def set_lines(marks: list[Mark]) -> list[Box]:
    """Return the boxes of a text element's set lines (ascent to descent) and of the icons set in them."""
    lines: dict[int, list[Box]] = {}
    for mark in marks:
        if mark.paint == "text":
            lines.setdefault(mark.line, []).append(mark.box)
    return [union(boxes) for boxes in lines.values()] + [m.box for m in marks if m.paint in ("fill", "stroke")]


SHAPES = ("rect", "ellipse", "polygon", "path", "pattern")  # what may lie behind text, never over it


def collisions(ink: list[Mark]) -> Iterator[Finding]:
    """Text whose set lines overlap another text's lines, or an icon or image it does not own, or that a
    shape drawn after it paints over (L110)."""
    groups = list(_by_element(ink).values())
    last = {id(mark.element): index for index, mark in enumerate(ink)}
    texts = [(el, lines, union(lines)) for el, lines in _text_lines(groups)]
    solids = [(el, marks) for el, marks in groups if el.kind in ("icon", "image")]
    # The opaque shape fills in drawing order, so the ones drawn after a text are found by bisection.
    covers = [(n, m) for n, m in enumerate(ink) if m.paint == "fill" and m.opacity >= 1 and m.element.kind in SHAPES]
    order = [n for n, _ in covers]
    for i, (el, lines, extent) in enumerate(texts):
        cpu.tick(len(texts) - i + len(solids))  # the pairs this text is tried in
        for other, other_lines, other_extent in texts[i + 1 :]:
            hit = largest_overlap(lines, other_lines) if extent.overlaps(other_extent) else None
            if hit:
                yield _overlap(el, f"{ref(el)} and {ref(other)} overlap", hit)
        owned = set(el.props.get("over", ()))
        for other, marks in solids:
            if other.props.get("id") not in owned:
                hit = _painted(lines, marks)
                if hit:
                    yield _overlap(el, f"{ref(el)} overlaps {kind_ref(other)}", hit)
        later = [m for _, m in covers[bisect.bisect_right(order, last[id(el)]) :]]
        for other, marks in _by_element(later).values() if later else ():
            hit = _painted(lines, marks)
            if hit:
                yield _overlap(
                    el,
                    f"{ref(el)} is painted over by {kind_ref(other)}",
                    hit,
                    "draw shapes before the text they sit behind, or move one of them",
                )


def _text_lines(groups: list[tuple[Element, list[Mark]]]) -> Iterator[tuple[Element, list[Box]]]:
    """Yield each text element that set at least one line, with its set lines."""
    for el, marks in groups:
        if el.kind == "text":
            lines = set_lines(marks)
            if lines:
                yield el, lines


def _painted(lines: list[Box], marks: list[Mark]) -> Box | None:
    """Return the largest overlap of set lines with marks where the marks really paint (not just their box)."""
    best: Box | None = None
    for mark in marks:
        hit = largest_overlap(lines, [mark.box])
        if (
            hit
            and (best is None or hit.area > best.area)
            and (mark.paint != "fill" or any(mark.covers(x, y) for x, y in samples(hit, SAMPLE / 4)))
        ):
            best = hit
    return best


def _overlap(el: Element, what: str, hit: Box, hint: str | None = None) -> Finding:
    return Finding(
        el,
        "L110",
        f"{what} by {hit.width:.1f} × {hit.height:.1f} mm at ({hit.left:.1f}, {hit.top:.1f})",
        hint=hint or "move or shrink one of them; a text meant to sit on an icon or image lists its id in `over`",
    )


def largest_overlap(a: Iterable[Box], b: Iterable[Box], touch: float = TOUCH) -> Box | None:
    """Return the largest box where a box of `a` overlaps one of `b` by at least `touch` both ways, or None."""
    best: Box | None = None
    boxes, others = list(a), list(b)
    if len(boxes) * len(others) > _SWEEP_FROM:
        return _swept_overlap(boxes, others, touch)
    for box in boxes:
        for other in others:
            hit = box.intersection(other)
            if hit and hit.width >= touch and hit.height >= touch and (best is None or hit.area > best.area):
                best = hit
    return best


_SWEEP_FROM = 64  # pairs of boxes past which largest_overlap sorts rather than tries every pair


def _swept_overlap(a: list[Box], b: list[Box], touch: float) -> Box | None:
    """largest_overlap for many boxes: only the boxes of `b` whose tops lie near a box of `a` are tried (sorted
    by top), and of equal overlaps the first in (a, b) order wins, as in the plain loop."""
    ranked = sorted(range(len(b)), key=lambda j: b[j].top)
    tops = [b[j].top for j in ranked]
    tallest = max(box.height for box in b)
    best: tuple[float, int, int, Box] | None = None
    for i, box in enumerate(a):
        cpu.tick()
        first = bisect.bisect_left(tops, box.top - tallest)
        for at in range(first, bisect.bisect_right(tops, box.bottom)):
            j = ranked[at]
            hit = box.intersection(b[j])
            if not hit or hit.width < touch or hit.height < touch:
                continue
            if best is None or hit.area > best[0] or (hit.area == best[0] and (i, j) < best[1:3]):
                best = (hit.area, i, j, hit)
    return best[3] if best else None


def sizes(ink: list[Mark], limits: Thresholds) -> Iterator[Finding]:
    """Text set below the minimum printed size (L111); rules text (`role: rules`) has a higher minimum."""
    for el, marks in _by_element(ink).values():
        set_sizes = [m.size for m in marks if m.paint == "text"]
        if el.kind != "text" or not set_sizes:
            continue
        rules = el.props.get("role") == "rules"
        minimum = limits.min_rules_text_pt if rules else limits.min_text_pt
        smallest = min(set_sizes)
        if smallest < minimum - 1e-6:
            declared = el.props.get("size", 9.0)
            shrunk = f" (shrunk from {declared:g} pt to fit)" if max(set_sizes) < declared - 1e-6 else ""
            yield Finding(
                el,
                "L111",
                f"{ref(el)} is {'rules text' if rules else 'text'} set at {smallest:.3g} pt{shrunk}; "
                f"the minimum is {minimum:g} pt",
                limits.severity,
                f"set it at {minimum:g} pt or more: raise `size` and `min_size`, or give it more room",
            )


def plates(ink: list[Mark], limits: Thresholds) -> Iterator[Finding]:
    """Small text in a colour a press file prints on three or four inks (L114): near black prints on K alone.

    Press files only (preflight and the DriveThruCards export run it): a home printer has no plates to misregister.
    """
    for el, marks in _by_element(ink).values():
        small = [m for m in marks if m.paint == "text" and m.colour and m.size < SHARP_TEXT_PT - 1e-6]
        if el.kind != "text" or not small:
            continue
        mark = min(small, key=lambda m: m.size)
        used = inks.plates(*contrast.rgb(str(mark.colour)))
        if len(used) > SHARP_PLATES:
            yield Finding(
                el,
                "L114",
                f"{ref(el)} is {mark.colour} at {mark.size:.3g} pt: a press file prints it on {len(used)} inks "
                f"({'+'.join(used)}), which blur where they do not register",
                "warning",
                f"set it at {SHARP_TEXT_PT:g} pt or more, or in a colour nearer black, a grey or one or two inks",
            )


def contrasts(ink: list[Mark], limits: Thresholds) -> Iterator[Finding]:
    """Text whose colour stands out too little from what is drawn behind it (L112), or sits on art (L113)."""
    worst: dict[int, tuple[float, Mark, str, str, float]] = {}  # element -> (shortfall, mark, fg, bg, ratio)
    on_art: dict[int, Mark] = {}
    painted: list[Mark] = []  # the fills and images drawn so far: only they can be behind a text
    for mark in ink:
        if mark.paint in ("fill", "image"):
            painted.append(mark)
        if mark.paint != "text" or mark.colour is None:
            continue
        cpu.tick(len(painted) // 16 + 1)
        behind = [m for m in painted if m.element is not mark.element and m.box.overlaps(mark.box)]
        owned = set(mark.element.props.get("over", ()))
        colliding = {  # where an icon or image the text does not own lies under it, L110 has said it all
            id(m) for m in behind if m.element.kind in ("icon", "image") and m.element.props.get("id") not in owned
        }
        needed = limits.min_contrast_large if large(mark) else limits.min_contrast
        for backdrop in backdrops(behind, mark.box, colliding):
            if backdrop is None:
                on_art.setdefault(id(mark.element), mark)
                continue
            text, value = _against(mark.colour, mark.opacity, backdrop)
            shortfall = value / needed
            if shortfall < 1 - 1e-9 and shortfall < worst.get(id(mark.element), (math.inf,))[0]:
                worst[id(mark.element)] = (
                    shortfall,
                    mark,
                    contrast.hex_colour(text),
                    contrast.hex_colour(backdrop),
                    value,
                )
    for _shortfall, mark, fg, bg, value in worst.values():
        needed = limits.min_contrast_large if large(mark) else limits.min_contrast
        kind = "large text" if large(mark) else f"text below {LARGE_PT:g} pt ({LARGE_BOLD_PT:g} pt bold)"
        yield Finding(
            mark.element,
            "L112",
            f"{ref(mark.element)} is {fg} on {bg}, contrast {value:.2f}:1; {kind} needs {needed:g}:1",
            limits.severity,
            "darken the text or lighten what is behind it (or the reverse)",
        )
    for mark in on_art.values():
        yield Finding(
            mark.element,
            "L113",
            f"{ref(mark.element)} is set on art, so its contrast cannot be measured",
            "warning",
            "check it on a proof, or give the text a plain backdrop",
        )


@lru_cache(maxsize=4096)  # a kit's texts are in a few colours, on a few backdrops
def _against(colour: str, opacity: float, backdrop: contrast.RGB) -> tuple[contrast.RGB, float]:
    """Return the colour a text shows at `opacity` over `backdrop`, and its contrast ratio with it."""
    text = contrast.over(contrast.rgb(colour), backdrop, opacity)
    return text, contrast.ratio(text, backdrop)


def large(mark: Mark) -> bool:
    """Return True for text WCAG counts as large: 18 pt, or 14 pt bold."""
    return mark.size >= LARGE_PT - 1e-6 or (mark.bold and mark.size >= LARGE_BOLD_PT - 1e-6)


def samples(box: Box, step: float = SAMPLE) -> list[tuple[float, float]]:
    """Return the centres of a grid of cells about `step` wide covering `box`."""
    width, height = box.width, box.height
    columns, rows = max(2, math.ceil(width / step)), max(2, math.ceil(height / step))
    xs = [box.left + (i + 0.5) * width / columns for i in range(columns)]
    ys = [box.top + (j + 0.5) * height / rows for j in range(rows)]
    return [(x, y) for x in xs for y in ys]


def backdrops(behind: list[Mark], box: Box, skip: set[int] | None = None) -> set[contrast.RGB | None]:
    """Return every colour the marks `behind` (in drawing order) leave inside `box`, None where art shows;
    points under a mark whose id() is in `skip` are left out.

    Marks that surely cover the whole box (a panel or disc around the text) are taken at once, topmost
    first; only below the first mark that covers part of it is the box sampled on a grid.
    """
    skip = skip or set()
    above = list(reversed(behind))
    common: list[Mark] = []
    depth = 0
    while depth < len(above) and above[depth].covers_box(box):
        common.append(above[depth])
        depth += 1
        if id(common[-1]) in skip:
            return set()
        if common[-1].paint == "image" or common[-1].opacity >= 1:
            return {_composite(common)}
    if depth == len(above):
        return {_composite(common)}
    stacks: dict[tuple[int, ...], list[Mark]] = {}
    for x, y in samples(box):
        stack = list(common)
        for mark in above[depth:]:
            if mark.covers(x, y):
                stack.append(mark)
                if mark.paint == "image" or mark.opacity >= 1:
                    break
        stacks.setdefault(tuple(map(id, stack)), stack)
    return {_composite(stack) for key, stack in stacks.items() if not skip.intersection(key)}


def _composite(stack: list[Mark]) -> contrast.RGB | None:
    """Return the colour a stack of marks (topmost first) shows on paper, or None when it shows art."""
    if any(mark.paint == "image" for mark in stack):
        return None
    colour = contrast.rgb(PAPER)
    for mark in reversed(stack):
        colour = contrast.over(contrast.rgb(mark.colour or PAPER), colour, mark.opacity)
    return colour
