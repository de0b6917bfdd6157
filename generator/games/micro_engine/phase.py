"""Where a Micro-Engine game stands: the turn's phases and the small decisions inside them, by name."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """A game's phase; each waits for one small decision of the current player (SETUP for the chance node)."""

    CHOOSE_CORE = 0  # Setup 3: keep 1 of the 2 Cores dealt, in seat order
    DRAW = 1  # Phase A: take 2 cards from the Workshop Row and/or the top of the deck
    PLAY = 2  # Phase B: spend an action (play a Part, Upgrade or Calibration, or Research)
    PAY = 3  # discard cards from hand, one at a time, to pay the Cost of the card being played
    BONUS = 4  # right after a Part: play 1 Upgrade without spending an action, or skip
    EFFECT_DISCARD = 5  # an effect says "discard N" (or Row Organizer's extra pick is paid back)
    TRIGGER_ORDER = 6  # several triggered effects at once and one discards: choose which resolves first
    HAND_LIMIT = 7  # end of turn: discard down to the hand limit
    OVER = 8  # the last round is over
    SETUP = 9  # the opening chance node, before anything is dealt

    @property
    def label(self) -> str:
        """Return the short name observations, messages and scenarios use (`draw`, `play`, `limit` …)."""
        return LABELS[self]


LABELS = ("core", "draw", "play", "pay", "bonus", "discard", "order", "limit", "over", "setup")

# Module-level aliases for the hot paths: on Python 3.11 reading `Phase.PLAY` costs about 0.2 µs (the enum
# metaclass has a __getattr__ hook), a module global about 0.02 µs. They are the same enum members.
CHOOSE_CORE = Phase.CHOOSE_CORE
DRAW = Phase.DRAW
PLAY = Phase.PLAY
PAY = Phase.PAY
BONUS = Phase.BONUS
EFFECT_DISCARD = Phase.EFFECT_DISCARD
TRIGGER_ORDER = Phase.TRIGGER_ORDER
HAND_LIMIT = Phase.HAND_LIMIT
OVER = Phase.OVER
SETUP = Phase.SETUP


# `Board.after_effects`: what the turn does once the queued effects have resolved. Besides these two it holds
# the kind of card whose effects are resolving (tables.PART, UPGRADE, CALIBRATION) or tables.RESEARCH.
AFTER_NOTHING = -1
AFTER_DRAW = 9  # Row Organizer's extra pick is paid back: refill the Row and start Phase B
