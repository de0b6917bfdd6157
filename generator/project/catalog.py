"""What `cardpress list` shows: every game and edition under cards/, its ruleset, player counts, card sizes and kits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..build import kit_path
from ..diagnostics import Report
from ..impose.sizes import size_label
from ..pipeline import Pipeline
from ..source import yamlsrc
from .locate import list_games

PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class Listing:
    """One game (or fan edition) folder as `cardpress list` describes it."""

    id: str
    folder: str  # e.g. "cards/pocket-foundry"
    title: str
    ruleset: str
    extends: str  # the game or edition a fan edition is based on ("" for a game)
    players: list[int]
    default_players: int | None
    card_sizes: list[dict[str, Any]]  # [{"size": "poker, 63.5 × 88.9 mm", "cards": 40}], at the default player count
    kits: list[str]  # kit PDFs present under the output folder
    errors: int  # problems that keep the game from loading (see `cardpress validate GAME`)

    def to_json(self) -> dict[str, Any]:
        """Return the listing as plain JSON data."""
        return asdict(self)


def catalog(root: Path, out: Path, shown: Callable[[Path], str] = str) -> list[Listing]:
    """Return a listing of every game folder under `root`/cards, in folder order; `shown` turns a path into text."""
    return [describe(root, game_id, out, shown) for game_id in list_games(root)]


def describe(root: Path, game_id: str, out: Path, shown: Callable[[Path], str] = str) -> Listing:
    """Return what one game folder is: loaded through the pipeline, or what its game.yaml says when it does not load."""
    pipeline = Pipeline(root, game_id)
    loaded = pipeline.load()  # the schema layer only: a listing does not hold the cards to the rules
    kit = loaded.ruleset.kit(loaded, loaded.header.default_players) if loaded else None
    data = _declared(root, game_id)
    sizes = Counter(size_label(card.size) for card in kit.cards) if kit else Counter()
    kits = [shown(path) for paper in PAPERS if (path := kit_path(out, game_id, paper)).is_file()]
    return Listing(
        id=game_id,
        folder=f"cards/{game_id}",
        title=loaded.header.title if loaded else _text(data.get("title")),
        ruleset=loaded.ruleset.name if loaded else _text(data.get("ruleset")),
        extends=_text(data.get("extends")),
        players=list(loaded.header.players) if loaded else [],
        default_players=loaded.header.default_players if loaded else None,
        card_sizes=[{"size": size, "cards": n} for size, n in sizes.items()],
        kits=kits,
        errors=len(pipeline.report.errors),
    )


def _declared(root: Path, game_id: str) -> dict[str, Any]:
    """Return game.yaml's own mapping (title, ruleset, extends), read even when the game does not load."""
    source = yamlsrc.load_file(root / "cards" / game_id / "game.yaml", f"cards/{game_id}/game.yaml", Report())
    return source.data if isinstance(source.data, dict) else {}


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
