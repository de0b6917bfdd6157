"""The closed effect vocabulary: which ops exist, at which timings, on which kinds of card."""

from __future__ import annotations

TIMINGS = ("played", "ongoing", "once_per_turn", "end_game")
TIMING_WORDS = {"played": "When played", "ongoing": "Ongoing", "once_per_turn": "Once per turn", "end_game": "End game"}
EVENTS = ("part", "upgrade", "calibration", "research")

# Where each op may appear. "trigger" means ongoing/once_per_turn with `trigger:` (fires on an event);
# "static" means ongoing without `trigger:` (always on); "permission" means once_per_turn without `trigger:`
# (applies to the first play it fits each turn). Triggered ops must commute, so that the order
# the rulebook lets a player choose for simultaneous triggers never matters (see engine).
OP_PLACES = {
    "draw": {"played", "trigger"},
    "action": {"played", "trigger"},
    "discard": {"played"},
    "next_cost": {"played"},
    "next_any_input": {"played"},
    "cost": {"static", "permission"},
    "any_input": {"permission"},
    "research": {"static"},
    "row_pick": {"static"},
    "hand_limit": {"static"},
    "open_end": {"static"},
    "vp": {"end_game"},
}

PLACE_WORDS = {
    "played": "a When played effect",
    "trigger": "a triggered effect (`trigger:`)",
    "static": "an ongoing effect without `trigger:`",
    "permission": "a once-per-turn effect without `trigger:`",
    "end_game": "an End game effect",
}

# Quantities a condition or a VP count can name; `neighbors` only makes sense for an Upgrade.
QUANTITIES = (
    "chain_length",
    "parts",
    "types",
    "upgrades",
    "loaded",
    "top_vp",
    "hand",
    "patents",
    "claims",
    "actions",
    "neighbors",
)
# Which timings each kind of card may carry: a Calibration is a one-shot, a Core is never played.
KIND_TIMINGS = {
    "part": set(TIMINGS),
    "upgrade": set(TIMINGS),
    "calibration": {"played"},
    "core": {"ongoing", "once_per_turn", "end_game"},
}
# Ops that reach for the Workshop Row: cards carrying them are dead in Travel mode (no Row).
ROW_OPS = {"row_pick"}


def place(when: str, on: str | None) -> str:
    """Return the place of an effect: played, trigger, static, permission or end_game."""
    if when == "played" or when == "end_game":
        return when
    if on is not None:
        return "trigger"
    return "static" if when == "ongoing" else "permission"
