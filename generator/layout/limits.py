"""What a game asks of its printed text (game.yaml `lint:`) and of its faces' edges: every build reads
these, for the faces' keys; the lint that checks them is loaded only when a face is laid out."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

SAFE = 3.0  # mm inside the trim that only bleed art may use (print-shop safe zone)


@dataclass(frozen=True)
class Thresholds:
    """What a game asks of its printed text (game.yaml `lint:`); sizes in points, contrast as ratios."""

    min_text_pt: float = 6.0
    min_rules_text_pt: float = 7.0
    min_contrast: float = 4.5
    min_contrast_large: float = 3.0
    severity: str = "warning"  # of small or faint text; colliding text is always an error


DEFAULTS = Thresholds()


def thresholds(game: dict[str, Any] | None) -> Thresholds:
    """Return the thresholds game.yaml data sets under `lint:` (its schema checked them), defaults elsewhere."""
    given = game.get("lint") if isinstance(game, dict) else None
    if not isinstance(given, dict):
        return DEFAULTS
    known = {f.name for f in fields(Thresholds)}
    return Thresholds(**{key: value for key, value in given.items() if key in known})
