"""Layout lint on laid-out faces: set lines that collide, text below the minimum size, text that lacks contrast."""

from __future__ import annotations

import pytest
from lintkit import FONTS, ICONS, findings, laid_out

from generator.layout import legibility, limits
from generator.render.trace import trace

SHIPPED = limits.Thresholds(severity="error")


def test_set_lines_that_overlap_are_an_error_with_the_overlap_and_where():
    # The title's line runs from 10 mm to 10 + 1.1 × 12 pt = 14.66 mm; the tagline's starts at 14 mm.
    assert findings(
        '- text: {id: title, x: 10, y: 10, w: 40, h: 6, text: "Market", size: 12}\n'
        '- text: {id: tagline, x: 10, y: 14, w: 40, h: 6, text: "Buy low, run long", size: 9}\n'
    ) == ["error[L110] 'title' and 'tagline' overlap by 13.5 × 0.7 mm at (10.0, 14.0)"]


def test_declared_boxes_may_overlap_when_the_set_lines_do_not():
    # Both boxes are 10 mm high and overlap by 6 mm, but each one line of text sits at its box's top.
    assert (
        findings(
            '- text: {id: title, x: 10, y: 10, w: 40, h: 10, text: "Market", size: 9}\n'
            '- text: {id: tagline, x: 10, y: 14, w: 40, h: 10, text: "Buy low", size: 9}\n'
        )
        == []
    )


def test_text_on_an_icon_it_does_not_own_is_an_error_said_once():
    assert findings(
        "- icon: {id: gear, name: conn-mechanical, x: 30, y: 20, size: 8}\n"
        '- text: {id: label, x: 10, y: 22, w: 40, h: 5, text: "Mechanical chain", size: 9}\n'
    ) == ["error[L110] 'label' overlaps icon 'gear' by 3.8 × 3.5 mm at (30.2, 22.0)"]


def test_an_icon_without_an_id_is_named_by_its_place():
    assert findings(
        "- icon: {name: conn-mechanical, x: 30, y: 20, size: 8}\n"
        '- text: {id: label, x: 10, y: 22, w: 40, h: 5, text: "Mechanical chain", size: 9}\n'
    ) == ["error[L110] 'label' overlaps icon at elements[0] by 3.8 × 3.5 mm at (30.2, 22.0)"]


def test_text_set_on_an_icon_it_names_in_over_is_measured_against_it():
    star = '- icon: {id: star, name: vp, x: 10, y: 10, size: 12, colour: "COLOUR"}\n'
    number = (
        '- text: {id: vp, x: 12, y: 14, w: 8, h: 4, text: "3", size: 10, font: display, colour: "#ffffff", '
        "align: center, valign: middle, over: [star]}\n"
    )
    assert findings(star.replace("COLOUR", "#3b7553") + number) == []  # white on green: 5.45:1
    assert findings(star.replace("COLOUR", "#c2850a") + number) == [
        "warning[L112] 'vp' is #ffffff on #c2850a, contrast 3.16:1; text below 18 pt (14 pt bold) needs 4.5:1"
    ]


def test_over_names_icons_and_images_of_the_same_face():
    assert findings(
        '- rect: {id: panel, x: 10, y: 10, w: 20, h: 10, fill: "#ffffff"}\n'
        '- text: {id: vp, x: 12, y: 14, w: 8, h: 4, text: "3", size: 10, over: [panel, nothing]}\n'
    ) == [
        "error[L013] vp: `over` names 'panel', which is a rect",
        "error[L013] vp: `over` names 'nothing', which is not the id of any element on this face",
    ]


def test_text_on_art_it_does_not_own_collides_and_on_art_it_owns_is_not_measured():
    art = "- image: {id: art, src: art/x.png, x: 5, y: 5, w: 50, h: 30}\n"
    caption = '- text: {id: caption, x: 10, y: 25, w: 40, h: 6, text: "On the art", size: 9, colour: "#ffffff"'
    assert findings(art + caption + "}\n") == [
        "error[L110] 'caption' overlaps image 'art' by 14.4 × 3.5 mm at (10.0, 25.0)"
    ]
    assert findings(art + caption + ", over: [art]}\n") == [
        "warning[L113] 'caption' is set on art, so its contrast cannot be measured"
    ]


def test_text_a_shape_paints_over_is_an_error_but_a_shape_behind_it_is_not():
    panel = '- rect: {x: 5, y: 20, w: 50, h: 10, fill: "#ffffff"}\n'
    text = '- text: {id: cost, x: 10, y: 22, w: 40, h: 6, text: "BUILD COST: 2 FEED", size: 9}\n'
    assert findings(panel + text) == []
    assert findings(text + panel) == [
        "error[L110] 'cost' is painted over by rect at elements[1] by 30.5 × 3.5 mm at (10.0, 22.0)"
    ]
    disc = '- ellipse: {cx: 60, cy: 19, rx: 3, ry: 3, fill: "#ffffff"}\n'  # its box, not the disc, meets the text
    assert findings(text + disc) == []


def test_rotated_text_collides_along_its_turned_lines():
    assert findings(
        '- text: {id: side, x: 5, y: 10, w: 6, h: 40, text: "ELECTRICITY", size: 7, rotate: 270, '
        "valign: middle, align: center}\n"
        '- text: {id: across, x: 2, y: 28, w: 20, h: 5, text: "over it", size: 9}\n'
    ) == ["error[L110] 'side' and 'across' overlap by 2.7 × 3.5 mm at (6.6, 28.0)"]


SMALL = (
    '- text: {id: note, x: 10, y: 10, w: 20, h: 3, text: "Slot 1 · one per player", size: 7, min_size: 4}\n'
    '- text: {id: effect, x: 10, y: 20, w: 40, h: 10, text: "Gain 2 FEED.", size: 6.5, role: rules}\n'
    '- text: {id: label, x: 10, y: 40, w: 40, h: 10, text: "VP", size: 6}\n'
)


def test_text_that_shrinks_below_the_minimum_and_small_rules_text_are_reported():
    assert findings(SMALL) == [
        "warning[L111] 'note' is text set at 5.75 pt (shrunk from 7 pt to fit); the minimum is 6 pt",
        "warning[L111] 'effect' is rules text set at 6.5 pt; the minimum is 7 pt",
    ]


def test_a_game_sets_the_minimum_sizes_and_makes_them_errors():
    assert findings(SMALL, SHIPPED) == [
        "error[L111] 'note' is text set at 5.75 pt (shrunk from 7 pt to fit); the minimum is 6 pt",
        "error[L111] 'effect' is rules text set at 6.5 pt; the minimum is 7 pt",
    ]
    relaxed = limits.Thresholds(min_text_pt=5, min_rules_text_pt=6.5)
    assert findings(SMALL, relaxed) == []


def test_small_text_needs_4_5_to_1_and_large_or_bold_text_3_to_1():
    assert findings(
        '- text: {id: note, x: 10, y: 10, w: 40, h: 6, text: "Quiet words", size: 9, colour: "#999999"}\n'
        '- text: {id: big, x: 10, y: 20, w: 50, h: 10, text: "Big words", size: 18, colour: "#888888"}\n'
        '- text: {id: bold, x: 10, y: 32, w: 50, h: 8, text: "Bold words", size: 14, font: display, '
        'colour: "#888888"}\n'
        '- text: {id: medium, x: 10, y: 42, w: 50, h: 8, text: "Medium words", size: 14, colour: "#888888"}\n',
        SHIPPED,
    ) == [
        "error[L112] 'note' is #999999 on #ffffff, contrast 2.85:1; text below 18 pt (14 pt bold) needs 4.5:1",
        "error[L112] 'medium' is #888888 on #ffffff, contrast 3.54:1; text below 18 pt (14 pt bold) needs 4.5:1",
    ]


def test_contrast_is_measured_against_the_topmost_shape_behind_the_text():
    assert findings(
        '- rect: {x: 0, y: 0, w: 63.5, h: 12, fill: "#ffffff"}\n'
        '- rect: {x: 0, y: 0, w: 63.5, h: 12, fill: "#c8741c", radius: 2}\n'
        '- text: {id: name, x: 5, y: 2, w: 50, h: 8, text: "Feed Belt", size: 12, font: display, '
        'colour: "#ffffff", valign: middle}\n'
    ) == ["warning[L112] 'name' is #ffffff on #c8741c, contrast 3.52:1; text below 18 pt (14 pt bold) needs 4.5:1"]


def test_text_half_on_a_dark_panel_is_judged_by_its_worst_part():
    assert findings(
        '- rect: {x: 0, y: 0, w: 30, h: 30, fill: "#25221e"}\n'
        '- text: {id: across, x: 20, y: 10, w: 30, h: 6, text: "Across the edge", size: 9}\n'
    ) == ["warning[L112] 'across' is #000000 on #25221e, contrast 1.33:1; text below 18 pt (14 pt bold) needs 4.5:1"]


def test_translucent_text_and_shapes_are_mixed_before_measuring():
    assert findings('- text: {id: ghost, x: 10, y: 10, w: 40, h: 6, text: "Ghost", size: 9, opacity: 0.3}\n') == [
        "warning[L112] 'ghost' is #b2b2b2 on #ffffff, contrast 2.11:1; text below 18 pt (14 pt bold) needs 4.5:1"
    ]
    # Grey #595959 reads 7:1 on white, but a 50 % black veil makes the paper half grey (#808080 rounded) behind it.
    assert findings(
        '- rect: {x: 0, y: 0, w: 63.5, h: 30, fill: "#000000", opacity: 0.5}\n'
        '- text: {id: dim, x: 10, y: 10, w: 40, h: 6, text: "Dim", size: 9, colour: "#595959"}\n'
    ) == ["warning[L112] 'dim' is #595959 on #808080, contrast 1.76:1; text below 18 pt (14 pt bold) needs 4.5:1"]


def test_a_busy_pattern_behind_text_counts_where_it_is_drawn():
    pattern = (
        '- rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2d4a5a"}\n'
        "- pattern: {icon: conn-mechanical, x: 0, y: 0, w: 63.5, h: 88.9, size: 4.4, dx: 7.9375, dy: 7.4083, "
        'colour: "#4b6471"}\n'
    )
    label = '- text: {id: label, x: 6, y: 60, w: 51.5, h: 7, text: "WORKSHOP", size: 13, font: display, colour: "C"}\n'
    assert findings(pattern + label.replace("C", "#f3ecdd")) == []
    assert findings(pattern + label.replace("C", "#a0aeb5")) == [
        "warning[L112] 'label' is #a0aeb5 on #4b6471, contrast 2.74:1; text below 18 pt (14 pt bold) needs 4.5:1"
    ]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (None, limits.Thresholds()),
        ({"title": "A game"}, limits.Thresholds()),
        ({"lint": {"min_text_pt": 6.5, "severity": "error"}}, limits.Thresholds(min_text_pt=6.5, severity="error")),
        (
            {"lint": {"min_text_pt": 6, "min_rules_text_pt": 8, "min_contrast": 7, "min_contrast_large": 4.5}},
            limits.Thresholds(6, 8, 7, 4.5, "warning"),
        ),
    ],
)
def test_thresholds_come_from_game_yaml_with_defaults(data, expected):
    assert limits.thresholds(data) == expected


def test_small_text_on_three_inks_is_reported_and_near_black_is_not():
    def plates(size: str, colour: str) -> list[str]:
        text = f'- text: {{id: note, x: 5, y: 5, w: 50, h: 8, text: "Small print", size: {size}, colour: "{colour}"}}\n'
        ink = trace(laid_out(text), FONTS, ICONS)
        return [f"{f.severity}[{f.code}] {f.message}" for f in legibility.plates(ink, limits.Thresholds())]

    assert plates("7", "#973434") == [
        "warning[L114] 'note' is #973434 at 7 pt: a press file prints it on 3 inks (M+Y+K), "
        "which blur where they do not register"
    ]
    assert plates("9", "#973434") == []  # 9 pt and up: large enough
    assert plates("7", "#2a2622") == []  # near black: K alone
    assert plates("7", "#2060ff") == []  # C+M only: two inks
    assert (
        findings('- text: {id: note, x: 5, y: 5, w: 50, h: 8, text: "Small print", size: 7, colour: "#973434"}\n') == []
    )
