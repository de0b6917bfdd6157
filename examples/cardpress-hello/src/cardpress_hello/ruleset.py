"""The hello ruleset: a deck of plain cards from the game's cards.yaml, each with an id, a name and its copies."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from generator.contract import Header, LoadedGame, Pack, Ruleset
from generator.sdk import Card, Face, GameDir, Kit, Report, format_path

HERE = Path(__file__).parent
Cards = list[dict[str, Any]]  # the model: cards.yaml as the schema checked it


class Hello(Ruleset[Cards]):
    """Plain cards from cards.yaml, checked by this package's schema, printed with its two templates."""

    name = "hello"  # what game.yaml's `ruleset:` says
    summary = "plain cards with a name"

    def pack(self) -> Pack:
        # The package's own files: its schema, its templates, and a game any folder builds by id (`cardpress build hello`).
        return Pack(schemas=HERE / "schemas", layouts=HERE / "layouts", games=HERE / "games")

    def codes(self) -> Mapping[str, str]:
        return {"HE001": "two cards print the same name"}

    def load(self, game: GameDir, header: Header, report: Report, icons: Collection[str]) -> Cards | None:
        # Merged over a fan edition's bases and checked against the schema, every problem located (S001-S006).
        source = game.load("cards.yaml", "hello-cards", report)
        if not report.ok():
            return None
        seen: dict[str, int] = {}
        for i, card in enumerate(source.data):
            if card["name"] in seen:  # what no schema can say: the ruleset's own check, with its own code
                report.error(
                    "HE001",
                    f"'{card['name']}' is printed twice",
                    path=format_path((i, "name")),
                    loc=source.loc((i, "name")),
                    hint=f"{format_path((seen[card['name']],))} has that name too; give one card `copies: 2` instead",
                )
            seen.setdefault(card["name"], i)
        return source.data if report.ok() else None

    def kit(self, game: LoadedGame[Cards], players: int) -> Kit:
        kit = game.new_kit(players, decks={"main": "hello cards"})
        back = Face("hello-back.yaml.j2", {}, "back")
        for card in game.model:
            front = Face("hello-front.yaml.j2", {"card": card}, f"{card['id']}/front")  # copies share one face
            for n in range(1, card.get("copies", 1) + 1):
                kit.cards.append(Card(f"{card['id']}-{n}", card["name"], "main", front, back))
        return kit


RULESET = Hello()
