"""Card sizes: exact preset millimetres, what users may write, and the messages for what they may not."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from generator.impose.sizes import PRESETS, CardSize, SizeError, parse_size, size_conflicts

# print-specs.md §1 (and the two business cards): name -> trim in mm, as the size is named
EXACT = {
    "poker": (63.5, 88.9),
    "poker-euro": (63.0, 88.0),
    "bridge": (57.15, 88.9),
    "tarot": (69.85, 120.65),
    "mini-american": (44.45, 63.5),
    "mini-euro": (44.0, 68.0),
    "euro": (59.0, 92.0),
    "square": (88.9, 88.9),
    "euro-square": (70.0, 70.0),
    "jumbo": (88.9, 139.7),
    "business-us": (88.9, 50.8),
    "business-eu": (85.0, 55.0),
}


def test_every_preset_has_its_exact_millimetres():
    assert {name: size.mm for name, size in PRESETS.items()} == EXACT
    assert all(size.name == name for name, size in PRESETS.items())


@pytest.mark.parametrize(
    "value, expected",
    [
        ("poker", (63.5, 88.9)),
        ("Poker", (63.5, 88.9)),
        ("tarot landscape", (120.65, 69.85)),
        ("tarot portrait", (69.85, 120.65)),
        ("business-us", (88.9, 50.8)),
        ("business-us portrait", (50.8, 88.9)),
        ("business-eu landscape", (85.0, 55.0)),
        ("mini american", (44.45, 63.5)),
        ("mini-us", (44.45, 63.5)),
        ("mtg", (63.0, 88.0)),
        ("square landscape", (88.9, 88.9)),
        ("63x88mm", (63.0, 88.0)),
        ("63 x 88", (63.0, 88.0)),
        ("63×88 mm", (63.0, 88.0)),
        ("2.5x3.5in", (63.5, 88.9)),
        ("2.5 in x 3.5 in", (63.5, 88.9)),
        ("2.5in x 88mm", (63.5, 88.0)),
        ("7x12cm landscape", (120.0, 70.0)),
        ("120x70mm portrait", (70.0, 120.0)),
        ({"w": "2.5in", "h": "3.5in"}, (63.5, 88.9)),
        ({"w": 70, "h": 120, "orientation": "landscape"}, (120.0, 70.0)),
        ({"preset": "jumbo", "orientation": "landscape"}, (139.7, 88.9)),
        ({"preset": "euro"}, (59.0, 92.0)),
    ],
)
def test_sizes_users_write(value, expected):
    assert parse_size(value).mm == expected


def test_a_parsed_size_unpacks_like_the_old_tuple_and_names_its_preset():
    size = parse_size("tarot landscape")
    w, h = size
    assert (w, h) == (120.65, 69.85)
    assert size.label == "tarot, 120.65 × 69.85 mm"
    assert parse_size("63x88mm").label == "63 × 88 mm"
    assert parse_size(size) is size


@pytest.mark.parametrize(
    "value, message, hint, key",
    [
        ("pokr", "unknown card size 'pokr'", "did you mean 'poker'?", "preset"),
        ("mini-eur", "unknown card size 'mini-eur'", "did you mean 'mini-euro'?", "preset"),
        ("tarot landscap", "unknown orientation 'landscap'", "did you mean 'landscape'?", None),
        ({"preset": "brige"}, "unknown card size 'brige'", "did you mean 'bridge'?", "preset"),
        ("63x", "'63x' is not a card size", "write width x height with a unit, e.g. 63x88mm or 2.5x3.5in", None),
        ("2.5x3.5", "w is 2.5 mm, which no card is", "a card side is between 15 and 300 mm", "w"),
        ({"w": 2.5, "h": 3.5}, "w is 2.5 mm, which no card is", "bare numbers are millimetres: write '2.5in'", "w"),
        ({"w": "wide", "h": 88}, "w must be a length, not 'wide'", "write e.g. 63.5, '63.5mm' or '2.5in'", "w"),
        ({"w": 63, "h": True}, "h must be a length, not true (a boolean)", "write e.g. 63.5", "h"),
        ({"w": 63, "h": 0}, "h is 0 mm, which no card is", "a card side is between 15 and 300 mm", "h"),
        ({"w": 63, "h": 400}, "h is 400 mm, which no card is", "a card side is between 15 and 300 mm", "h"),
        ({"w": 63}, "a custom card size needs h", "write e.g. {w: 2.5in, h: 3.5in} or {preset: poker}", None),
        ({"width": 63, "h": 88}, "unknown key 'width' in a card size", "a card size mapping takes preset", "width"),
        ({"w": 63, "hh": 88}, "unknown key 'hh' in a card size", "did you mean 'h'?", "hh"),
        (
            {"w": 63, "h": 88, "orientation": "sideways"},
            "orientation must be portrait or landscape",
            None,
            "orientation",
        ),
        ({"preset": "poker", "w": 60}, "a card size takes either a preset or w and h, not both", "drop w and h", "w"),
        (12, "a card size must be a preset name, 'W x H' text or a mapping, not the number 12", "write e.g.", None),
        ("", "a card size is empty", "presets: poker, poker-euro", None),
    ],
)
def test_size_mistakes_say_exactly_what_is_wrong(value, message, hint, key):
    with pytest.raises(SizeError) as caught:
        parse_size(value)
    error = caught.value
    assert error.message.startswith(message)
    assert (error.hint is None) if hint is None else error.hint.startswith(hint)
    assert error.key == key


@given(
    w=st.floats(15, 300),
    h=st.floats(15, 300),
    unit=st.sampled_from(["mm", "in", "cm"]),
    orientation=st.sampled_from([None, "portrait", "landscape"]),
)
def test_custom_sizes_round_trip_and_orientation_names_the_shape(w, h, unit, orientation):
    per = {"mm": 1.0, "cm": 10.0, "in": 25.4}[unit]
    assume(15 <= w * per <= 300 and 15 <= h * per <= 300)
    value = {"w": f"{w!r}{unit}", "h": f"{h!r}{unit}", **({"orientation": orientation} if orientation else {})}
    size = parse_size(value)
    assert sorted(size.mm) == pytest.approx(sorted((w * per, h * per)), abs=1e-4)
    if orientation == "landscape":
        assert size.w >= size.h
    elif orientation == "portrait":
        assert size.w <= size.h
    else:
        assert size.mm == pytest.approx((w * per, h * per), abs=1e-4)


def _card(id, deck, size):
    return SimpleNamespace(id=id, deck=deck, size=size)


def test_a_deck_of_mixed_sizes_names_the_cards_that_differ():
    cards = [
        _card("a1", "market", PRESETS["poker"]),
        _card("a2", "market", CardSize(63.5, 88.9)),  # the same trim, written as a custom size
        _card("a3", "market", PRESETS["tarot"]),
        _card("b1", "aid", PRESETS["mini-euro"]),
        _card("c1", "roles", PRESETS["bridge"]),
        _card("c2", "roles", PRESETS["poker"]),
    ]
    conflicts = size_conflicts(cards)
    assert [(c.deck, c.size, c.cards) for c in conflicts] == [
        ("market", (63.5, 88.9), ("a3",)),
        ("roles", (57.15, 88.9), ("c2",)),  # a tie: the first size seen is the deck's
    ]
    assert conflicts[0].message == "deck 'market' mixes card sizes: a3 differs from its 63.5 × 88.9 mm cards"
    assert size_conflicts(cards[:2] + cards[3:4]) == []
