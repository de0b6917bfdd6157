"""A small generic game for the deck-ruleset tests: game.yaml, templates, icons, and cards written by each test."""

from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import copy_project

from generator.diagnostics import Report
from generator.pipeline import Pipeline

GAME_YAML = """\
title: Tiny Deck
ruleset: deck
players: {supported: [2, 3], default: 3}
style: {ink: "#222222"}
decks:
  - id: main
    name: main cards
    cards: cards.csv
    template: front.yaml.j2
    back: back.yaml.j2
    markup: [text]
"""

FRONT = """\
{% import "macros.j2" as m %}
bleed: 3
elements:
- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#ffffff", bleed=true) }}
- {{ m.text(6, 8, face.w - 12, 10, card.name, font="display", size=14, plain=true, id="name") }}
- {{ m.text(6, 20, face.w - 12, 8, card.cost, size=10, plain=true, id="cost") }}
- {{ m.text(6, 30, face.w - 12, 40, rich.text, size=10, min=7, id="text") }}
- {{ m.text(6, 72, face.w - 12, 8, card.flavour|default(""), size=8, plain=true, id="flavour") }}
"""

BACK = """\
{% import "macros.j2" as m %}
bleed: 3
elements:
- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#224466", bleed=true) }}
"""

ICONS = """\
icons:
  coin:
    label: coin
    shapes:
      - circle: [50, 50, 45]
"""

CSV = """\
name,copies,cost,text
Ant,2,1,Gain 1 :coin:.
Bee,1,2,<b>Buzz</b> twice.
Cat,3,0,Nap.
"""


def deck_project(tmp_path: Path, csv: str = CSV, game_yaml: str = GAME_YAML, files: dict | None = None) -> Path:
    """Return a project holding one deck game, cards/tiny, with the given cards and game.yaml."""
    project = copy_project(tmp_path / "project", games=())
    game = project / "cards" / "tiny"
    (game / "layouts").mkdir(parents=True)
    (game / "game.yaml").write_text(game_yaml, encoding="utf-8")
    (game / "layouts" / "front.yaml.j2").write_text(FRONT, encoding="utf-8")
    (game / "layouts" / "back.yaml.j2").write_text(BACK, encoding="utf-8")
    (game / "layouts" / "icons.yaml").write_text(ICONS, encoding="utf-8")
    if csv is not None:
        (game / "cards.csv").write_bytes(csv.encode("utf-8") if isinstance(csv, str) else csv)
    for name, text in (files or {}).items():
        path = game / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else textwrap.dedent(text).encode("utf-8"))
    return project


def load_report(project: Path, game: str = "tiny") -> tuple[object, Report]:
    """Load the game through the pipeline (placeholder art); return (loaded game or None, report)."""
    pipeline = Pipeline(project, game, missing_art="placeholder")
    return pipeline.load(), pipeline.report


def headlines(report: Report) -> list[str]:
    """Return every diagnostic's first line, sorted as the report prints them."""
    from generator.diagnostics import sort_diagnostics

    return [d.headline() for d in sort_diagnostics(report.items)]
