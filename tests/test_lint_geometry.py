"""Properties of the lint's geometry and colour helpers: box overlap, point in shape, WCAG contrast."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lintkit import FONTS, ICONS, laid_out

from generator.layout import contrast, legibility
from generator.layout.boxes import Box, union
from generator.layout.document import Element
from generator.layout.ink import Mark, inside, is_convex
from generator.layout.units import PT_PER_MM
from generator.render.trace import trace

coord = st.floats(min_value=-100, max_value=100, allow_nan=False)
size = st.floats(min_value=0.01, max_value=50, allow_nan=False)
colour = st.from_regex(r"#[0-9a-f]{6}", fullmatch=True)


@st.composite
def boxes(draw) -> Box:
    x, y = draw(coord), draw(coord)
    return Box(x, y, x + draw(size), y + draw(size))


@given(boxes(), boxes())
def test_intersection_is_symmetric_and_inside_both(a, b):
    hit = a.intersection(b)
    assert hit == b.intersection(a)
    if hit is not None:
        assert hit.area <= min(a.area, b.area) + 1e-9
        assert union([hit, a]) == a and union([hit, b]) == b
        assert hit.width > 0 and hit.height > 0


@given(boxes(), boxes())
def test_boxes_overlap_exactly_when_both_spans_overlap(a, b):
    spans = a.left < b.right and b.left < a.right and a.top < b.bottom and b.top < a.bottom
    assert (a.intersection(b) is not None) == spans


@given(st.lists(boxes(), min_size=1, max_size=5), st.lists(boxes(), min_size=1, max_size=5))
def test_largest_overlap_is_the_same_either_way_round(a, b):
    one, other = legibility.largest_overlap(a, b), legibility.largest_overlap(b, a)
    assert (one is None) == (other is None)
    if one is not None:
        assert one.area == pytest.approx(other.area)
        assert one.width >= legibility.TOUCH and one.height >= legibility.TOUCH


@given(colour, colour)
def test_contrast_is_symmetric_and_between_1_and_21(a, b):
    value = contrast.ratio(contrast.rgb(a), contrast.rgb(b))
    assert value == contrast.ratio(contrast.rgb(b), contrast.rgb(a))
    assert 1 <= value <= 21


@given(colour)
def test_a_colour_on_itself_has_no_contrast(c):
    assert contrast.ratio(contrast.rgb(c), contrast.rgb(c)) == 1


def test_contrast_matches_wcag_reference_values():
    assert contrast.ratio(contrast.rgb("#000000"), contrast.rgb("#ffffff")) == pytest.approx(21)
    assert round(contrast.ratio(contrast.rgb("#767676"), contrast.rgb("#ffffff")), 2) == 4.54  # WebAIM's grey
    assert round(contrast.ratio(contrast.rgb("#c2850a"), contrast.rgb("#fffdf8")), 2) == 3.10  # issue 12's gold


@given(colour, colour, st.floats(min_value=0, max_value=1))
def test_mixing_stays_between_the_two_colours(top, bottom, opacity):
    mixed = contrast.over(contrast.rgb(top), contrast.rgb(bottom), opacity)
    for m, t, b in zip(mixed, contrast.rgb(top), contrast.rgb(bottom)):
        assert min(t, b) - 1e-9 <= m <= max(t, b) + 1e-9
    assert contrast.over(contrast.rgb(top), contrast.rgb(bottom), 1) == contrast.rgb(top)
    assert contrast.over(contrast.rgb(top), contrast.rgb(bottom), 0) == contrast.rgb(bottom)


@given(colour, colour)
def test_legible_reaches_4_5_to_1_on_any_backdrop_and_keeps_a_colour_that_already_does(c, on):
    shade = contrast.legible(c, on)
    assert contrast.ratio(contrast.rgb(shade), contrast.rgb(on)) >= 4.5
    if contrast.ratio(contrast.rgb(c), contrast.rgb(on)) >= 4.5:
        assert shade == c


@given(boxes(), boxes())
def test_overlaps_says_whether_there_is_an_intersection(a, b):
    assert a.overlaps(b) == (a.intersection(b) is not None) == b.overlaps(a)


def _crossings(polygons, x, y) -> bool:
    """The even-odd rule as the lint first wrote it, edge by edge with indices: `inside` must agree exactly."""
    crossings = 0
    for polygon in polygons:
        n = len(polygon)
        for i in range(n):
            (x0, y0), (x1, y1) = polygon[i], polygon[(i + 1) % n]
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                crossings += 1
    return crossings % 2 == 1


@given(st.lists(st.lists(st.tuples(coord, coord), min_size=1, max_size=8), max_size=3), coord, coord)
def test_inside_counts_crossings_as_the_indexed_loop_did(polygons, x, y):
    shapes = tuple(tuple(p) for p in polygons)
    assert inside(shapes, x, y) == _crossings(shapes, x, y)
    for px, py in (p for polygon in shapes for p in polygon):  # on the corners themselves, too
        assert inside(shapes, px, py) == _crossings(shapes, px, py)


@given(boxes(), boxes(), st.lists(st.tuples(coord, coord), min_size=3, max_size=6), st.booleans(), st.booleans())
def test_covers_box_is_covering_all_four_corners(own, box, points, outlined, convex):
    outline = (tuple(points),) if outlined else ()
    mark = Mark(Element("rect", {}, "elements[0]"), "fill", own, "#000000", outline=outline, convex=convex)
    expected = all(mark.covers(x, y) for x, y in _corners(box)) if not outline or convex else False
    assert mark.covers_box(box) == expected
    inner = Box(own.left + own.width / 4, own.top + own.height / 4, own.right - own.width / 4, own.bottom)
    assert mark.covers_box(inner) == (all(mark.covers(x, y) for x, y in _corners(inner)) and (convex or not outline))


def _corners(box: Box) -> list[tuple[float, float]]:
    return [(box.left, box.top), (box.right, box.top), (box.left, box.bottom), (box.right, box.bottom)]


@given(boxes(), coord, coord)
def test_a_rectangle_polygon_holds_exactly_the_points_inside_its_box(box, x, y):
    corners = ((box.left, box.top), (box.right, box.top), (box.right, box.bottom), (box.left, box.bottom))
    on_edge = min(abs(x - box.left), abs(x - box.right), abs(y - box.top), abs(y - box.bottom)) < 1e-6
    if not on_edge:
        assert inside((corners,), x, y) == box.contains(x, y)


def test_a_hole_is_outside_under_the_even_odd_rule():
    outer = ((0, 0), (10, 0), (10, 10), (0, 10))
    hole = ((3, 3), (7, 3), (7, 7), (3, 7))
    assert inside((outer, hole), 1, 1) and not inside((outer, hole), 5, 5)


def test_convexity():
    assert is_convex(((0, 0), (10, 0), (10, 10), (0, 10)))
    assert is_convex(((0, 0), (5, 0), (10, 0), (10, 10), (0, 10), (0, 0)))  # collinear and closing points
    assert not is_convex(((0, 0), (10, 0), (10, 4), (4, 4), (4, 10), (0, 10)))  # an L
    assert not is_convex(((0, 0), (10, 0)))


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_traced_lines_turn_with_their_box_and_stay_inside_it(rotate):
    w, h = (40, 8) if rotate in (0, 180) else (8, 40)
    prepared = laid_out(
        f'- text: {{id: t, x: 10, y: 20, w: {w}, h: {h}, text: "Centre line", size: 9, align: center, '
        f"valign: middle, rotate: {rotate}}}\n"
    )
    (line,) = legibility.set_lines(trace(prepared, FONTS, ICONS))
    assert line.left >= 10 and line.right <= 10 + w
    assert line.top >= 20 and line.bottom <= 20 + h
    assert (line.left + line.right) / 2 == pytest.approx(10 + w / 2, abs=0.01)
    assert (line.top + line.bottom) / 2 == pytest.approx(20 + h / 2, abs=0.01)
    across, along = (line.height, line.width) if rotate in (0, 180) else (line.width, line.height)
    assert across == pytest.approx(1.1 * 9 * 25.4 / 72, abs=0.001)  # ascent + descent of one 9 pt line
    assert along > across


@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("translate"), st.floats(-50, 50), st.floats(-50, 50)),
            st.tuples(st.just("rotate"), st.floats(-360, 360)),
            st.tuples(st.just("scale"), st.floats(0.1, 4)),
        ),
        max_size=4,
    ),
    st.floats(-20, 20),
    st.floats(-20, 20),
    st.sampled_from(["Gain 4 ore.", "W", "送"]),
    st.sampled_from([6.0, 9.0, 13.0]),
)
def test_a_text_mark_is_the_box_around_its_four_corners_however_the_face_is_turned(moves, x, y, text, size):
    """Tracer.text maps its corners by hand (a mark for every piece of every line): as _around maps them."""
    from generator.render.text import ASCENT, DESCENT
    from generator.render.trace import Tracer

    tracer = Tracer(FONTS)
    tracer.enter(Element("text", {}, "t"))
    for name, *args in moves:
        getattr(tracer, name)(*args)
    font = FONTS.resolve(None, False, False)
    tracer.text(x, y, text, font, size, "#000000")
    em, width = size / PT_PER_MM, FONTS.width(text, font, size) / PT_PER_MM
    top, bottom = y - ASCENT * em, y + DESCENT * em
    (mark,) = tracer.marks
    assert mark.box == tracer._around([(x, top), (x + width, top), (x, bottom), (x + width, bottom)])
    assert (mark.paint, mark.text, mark.size, mark.line) == ("text", text, size, 0)
