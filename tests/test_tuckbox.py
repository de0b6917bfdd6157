"""Tuck box geometry: the inside fits the deck, and the die line folds on paper into a closed box."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.impose import tuckbox
from generator.impose.sheets import PAPERS, PRINTER_MARGIN
from generator.impose.sizes import PRESETS
from generator.impose.tuckbox import EASE, MIN_DEPTH, SLEEVES, STOCKS, Net, arrange, fitting, inner, net

SIZES = ["poker", "mini-american", "tarot", "bridge", "square", "business-eu"]
EPS = 1e-6

Vec = tuple[float, float, float]


# -- folding a die line on paper: every panel turns 90° about its hinge, print outside -------------------------------


def _sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _rotate(p: Vec, origin: Vec, axis: Vec, angle: float) -> Vec:
    """Rodrigues' rotation of p about the line through `origin` along the unit `axis`."""
    v = _sub(p, origin)
    c, s = math.cos(angle), math.sin(angle)
    dot = sum(a * b for a, b in zip(axis, v, strict=True))
    cross = (axis[1] * v[2] - axis[2] * v[1], axis[2] * v[0] - axis[0] * v[2], axis[0] * v[1] - axis[1] * v[0])
    return tuple(origin[i] + v[i] * c + cross[i] * s + axis[i] * dot * (1 - c) for i in range(3))  # type: ignore[return-value]


def fold(box: Net) -> dict[str, list[Vec]]:
    """Return every panel's corners in 3D after folding each panel 90° about its hinge, away from the print.

    The back stays in the plane z = 0 with its print facing +z; a fold turns a panel (and everything folded from
    it) so that it rises to the side the print does not face. Nothing here is read from the module but the
    panels' outlines, parents and hinges.
    """
    by_name = {p.name: p for p in box.panels}
    placed: dict[str, list[Vec]] = {}
    chains: dict[str, list[tuple[Vec, Vec, float]]] = {}  # name -> the folds from the root, innermost first

    def lift(name: str, point: tuple[float, float]) -> Vec:
        p: Vec = (point[0], point[1], 0.0)
        for origin, axis, angle in chains[name]:
            p = _rotate(p, origin, axis, angle)
        return p

    def resolve(name: str) -> None:
        if name in chains:
            return
        panel = by_name[name]
        if panel.parent is None:
            chains[name] = []
            return
        resolve(panel.parent)
        assert panel.hinge is not None
        (ax, ay), (bx, by) = panel.hinge
        length = math.hypot(bx - ax, by - ay)
        axis: Vec = ((bx - ax) / length, (by - ay) / length, 0.0)
        origin: Vec = (ax, ay, 0.0)
        far = max(panel.points, key=lambda q: abs((q[0] - ax) * axis[1] - (q[1] - ay) * axis[0]))
        angle = math.pi / 2
        if _rotate((far[0], far[1], 0.0), origin, axis, angle)[2] > 0:
            angle = -angle  # the other way round: away from the print
        chains[name] = [(origin, axis, angle), *chains[panel.parent]]

    for panel in box.panels:
        resolve(panel.name)
        placed[panel.name] = [lift(panel.name, q) for q in panel.points]
    return placed


def _span(points: list[Vec], axis: int) -> tuple[float, float]:
    values = [p[axis] for p in points]
    return min(values), max(values)


def _flat(points: list[Vec], axis: int, value: float) -> bool:
    return all(abs(p[axis] - value) < EPS for p in points)


def _within(points: list[Vec], axis: int, lo: float, hi: float) -> bool:
    return all(lo - EPS <= p[axis] <= hi + EPS for p in points)


def check_folds(box: Net) -> None:
    """Assert that the folded die line is a closed box: walls meet, flaps overlap, the tucks fit."""
    w, h, d = box.wall
    folded = fold(box)
    y0 = box.panel("back").bounds[1]
    y1 = y0 + h
    # The walls: back at z = 0, the spines at x = w and x = 0, the front at z = -d; the same height.
    assert _flat(folded["back"], 2, 0.0)
    assert _flat(folded["spine-1"], 0, w) and _span(folded["spine-1"], 2) == pytest.approx((-d, 0.0))
    assert _flat(folded["front"], 2, -d) and _span(folded["front"], 0) == pytest.approx((0.0, w))
    assert _flat(folded["spine-2"], 0, 0.0) and _span(folded["spine-2"], 2) == pytest.approx((-d, 0.0))
    for wall in ("back", "spine-1", "front", "spine-2"):
        assert _span(folded[wall], 1) == pytest.approx((y0, y1))
    # The tube closes: the glue flap lies flat on the back, inside its outline, over most of its height.
    glue = folded["glue"]
    assert _flat(glue, 2, 0.0) and _within(glue, 0, 0.0, w) and _within(glue, 1, y0, y1)
    assert _span(glue, 0)[1] - _span(glue, 0)[0] == pytest.approx(tuckbox.GLUE)
    if "glue-2" in folded:  # a split die line: the second glue flap lies on the front
        assert _flat(folded["glue-2"], 2, -d) and _within(folded["glue-2"], 0, 0.0, w)
    for end, y_wall, inward in (("top", y0, 1.0), ("bottom", y1, -1.0)):
        lid, tuck = folded[f"lid-{end}"], folded[f"tuck-{end}"]
        # The lid covers the opening exactly.
        assert _flat(lid, 1, y_wall)
        assert _span(lid, 0) == pytest.approx((0.0, w)) and _span(lid, 2) == pytest.approx((-d, 0.0))
        # The tuck flap goes down inside the front, narrower than it and shorter than the box.
        assert _flat(tuck, 2, -d)
        lo, hi = _span(tuck, 0)
        assert lo >= tuckbox.TUCK_INSET - EPS and hi <= w - tuckbox.TUCK_INSET + EPS
        assert hi - lo <= box.inner.w - 2 * box.paper
        reach = _span(tuck, 1)
        assert (reach[1] - reach[0]) == pytest.approx(box.tuck) and box.tuck < h / 2
        assert _within(tuck, 1, min(y_wall, y_wall + inward * box.tuck), max(y_wall, y_wall + inward * box.tuck))
        # The dust flaps fold in under the lid from both spines, inside the opening, and never meet.
        one, two = folded[f"dust-1-{end}"], folded[f"dust-2-{end}"]
        assert _flat(one, 1, y_wall) and _flat(two, 1, y_wall)
        assert _within(one, 2, -d, 0.0) and _within(two, 2, -d, 0.0)
        assert _span(one, 0)[1] == pytest.approx(w) and _span(two, 0)[0] == pytest.approx(0.0)
        assert _span(two, 0)[1] < _span(one, 0)[0]


# -- the inside fits the deck --------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from(SIZES),
    stock=st.sampled_from(sorted(STOCKS)),
    sleeve=st.sampled_from(sorted(SLEEVES)),
    count=st.integers(1, 150),
)
def test_inside_is_the_deck_plus_its_allowance(size: str, stock: str, sleeve: str, count: int) -> None:
    card = PRESETS[size]
    s, v = STOCKS[stock], SLEEVES[sleeve]
    box = inner(card.mm, count, s, v)
    short, long = sorted(card.mm)
    assert box.w == pytest.approx(short + v.margin + EASE[0])
    assert box.h == pytest.approx(long + v.margin + EASE[1])
    assert box.d == pytest.approx(max(MIN_DEPTH, count * (s.thickness + v.thickness) + EASE[2]))
    die = net(box)
    assert die.wall == pytest.approx((box.w + die.paper, box.h + die.paper, box.d + die.paper))
    x0, y0, x1, y1 = die.panel("front").bounds
    assert (x1 - x0, y1 - y0) == pytest.approx((die.wall[0], die.wall[1]))
    s0, _, s1, _ = die.panel("spine-1").bounds
    assert s1 - s0 == pytest.approx(die.wall[2])


@pytest.mark.parametrize(
    ("size", "stock", "count", "depth"),
    [
        ("poker", "home-300gsm", 40, 40 * 0.33 + 1.0),
        ("poker", "thegamecrafter", 54, 54 * 0.305 + 1.0),
        ("tarot", "home-200gsm", 78, 78 * 0.25 + 1.0),
        ("tarot", "makeplayingcards", 78, 78 * 0.30 + 1.0),
        ("mini-american", "home-250gsm", 30, 30 * 0.29 + 1.0),
        ("mini-american", "drivethrucards", 9, MIN_DEPTH),  # 3.97 mm: the spine is kept foldable
    ],
)
def test_inside_for_shipped_sizes_and_stocks(size: str, stock: str, count: int, depth: float) -> None:
    card = PRESETS[size]
    box = inner(card.mm, count, STOCKS[stock])
    assert (box.w, box.h, box.d) == pytest.approx((card.w + 1.5, card.h + 1.0, depth))


def test_sleeves_widen_and_thicken_the_box() -> None:
    bare = inner(PRESETS["poker"].mm, 50, STOCKS["home-300gsm"])
    sleeved = inner(PRESETS["poker"].mm, 50, STOCKS["home-300gsm"], SLEEVES["premium"])
    assert sleeved.w - bare.w == pytest.approx(3.0) and sleeved.h - bare.h == pytest.approx(3.0)
    assert sleeved.d - bare.d == pytest.approx(50 * 0.20)


# -- folding on paper ---------------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    size=st.sampled_from(SIZES),
    stock=st.sampled_from(sorted(STOCKS)),
    count=st.integers(1, 160),
    split=st.booleans(),
)
def test_the_die_line_folds_into_a_closed_box(size: str, stock: str, count: int, split: bool) -> None:
    check_folds(net(inner(PRESETS[size].mm, count, STOCKS[stock]), split=split))


def test_fold_check_catches_a_tuck_flap_as_wide_as_the_front(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tuckbox, "TUCK_INSET", 0.0)
    with pytest.raises(AssertionError):
        check_folds(net(inner(PRESETS["poker"].mm, 30, STOCKS["home-300gsm"])))


def test_one_piece_outline_is_closed_and_holds_every_panel() -> None:
    die = net(inner(PRESETS["poker"].mm, 40, STOCKS["home-300gsm"]))
    (piece,) = die.pieces
    left, top, right, bottom = piece.bounds
    for panel in die.panels:
        x0, y0, x1, y1 = panel.bounds
        assert left - EPS <= x0 and x1 <= right + EPS and top - EPS <= y0 and y1 <= bottom + EPS
    w, h, d = die.wall
    assert piece.size == pytest.approx((2 * w + 2 * d + tuckbox.GLUE, h + 2 * (d + die.tuck)))
    # the outline is one loop that never crosses itself (every edge meets only its neighbours)
    edges = list(zip(piece.outline, piece.outline[1:] + piece.outline[:1], strict=True))
    for i, (a, b) in enumerate(edges):
        for j, (c, e) in enumerate(edges):
            if abs(i - j) > 1 and {i, j} != {0, len(edges) - 1}:
                assert not _cross(a, b, c, e), (i, j)


def _cross(a, b, c, d) -> bool:  # type: ignore[no-untyped-def]
    def orient(p, q, r):  # type: ignore[no-untyped-def]
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return o1 * o2 < -EPS and o3 * o4 < -EPS


# -- on the page ---------------------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    paper=st.sampled_from(sorted(PAPERS)),
    counts=st.lists(st.integers(1, 180), min_size=1, max_size=5),
    size=st.sampled_from(["poker", "mini-american", "tarot"]),
)
def test_arranged_pieces_stay_on_the_page_and_apart(paper: str, counts: list[int], size: str) -> None:
    nets = [fitting(inner(PRESETS[size].mm, n, STOCKS["home-300gsm"]), paper) for n in counts]
    nets = [n for n in nets if n is not None]
    _, width, height = PAPERS[paper]
    for page in arrange(nets, paper):
        boxes = []
        for placed in page:
            die = nets[placed.box]
            points = [placed.to_page(die, p) for p in die.pieces[placed.piece].outline]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            assert min(xs) >= PRINTER_MARGIN + tuckbox.SPILL - EPS and max(xs) <= width - PRINTER_MARGIN - EPS
            assert min(ys) >= tuckbox.HEAD - EPS and max(ys) <= height - tuckbox.FOOT + EPS
            assert (max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx(placed.size(die))
            boxes.append((min(ys), max(ys)))
        boxes.sort()
        for (_, bottom), (top, _) in zip(boxes, boxes[1:], strict=False):
            assert top - bottom >= tuckbox.GAP - EPS


def test_a_deep_deck_turns_then_splits_then_does_not_fit() -> None:
    poker, stock = PRESETS["poker"].mm, STOCKS["home-300gsm"]
    upright = fitting(inner(poker, 40, stock), "a4")
    turned = fitting(inner(poker, 90, stock), "a4")
    split = fitting(inner(poker, 150, stock), "a4")
    assert upright is not None and len(upright.pieces) == 1
    assert turned is not None and len(turned.pieces) == 1
    assert tuckbox.orientation(turned.pieces[0].size, tuckbox.area("a4")[2:]) is True
    assert split is not None and len(split.pieces) == 2
    assert fitting(inner(poker, 150, stock), "a4", one_piece=True) is None
    assert fitting(inner(poker, 400, stock), "a4") is None
    most = tuckbox.most_cards(poker, stock, SLEEVES["none"], "a4")
    assert fitting(inner(poker, most, stock), "a4") is not None
    assert fitting(inner(poker, most + 1, stock), "a4") is None
