"""The hello ruleset: a deck of plain cards, one per entry of the game's cards.yaml, each with a name and a line."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from generator.contract import Header, LoadedGame, Ruleset
from generator.diagnostics import Report
from generator.kit import Card, Face, Kit
from generator.project.folders import GameDir
from generator.source.yamlsrc import format_path, load_file


class Hello(Ruleset):
    """Plain cards from cards.yaml, printed with the game's hello-front and hello-back templates."""

    name = "hello"  # what game.yaml's `ruleset:` says
    summary = "plain cards with a name and a line of text"

    def codes(self) -> Mapping[str, str]:
        return {"HE001": "a card without a name, or whose name is not text"}

    def load(self, game: GameDir, header: Header, report: Report, icons: Collection[str]) -> Any | None:
        source = load_file(game.folder / "cards.yaml", game.display("cards.yaml"), report)
        cards = source.data if isinstance(source.data, list) else []
        for i, card in enumerate(cards):
            if not isinstance(card, dict) or not isinstance(card.get("name"), str):
                # A located problem: cardpress prints file:line:col, the line, a caret and the hint.
                report.error(
                    "HE001",
                    "every card needs a name",
                    path=format_path((i,)),
                    loc=source.loc((i,)),
                    hint="write `- name: Ant`",
                )
        return cards if report.ok() else None

    def kit(self, game: LoadedGame, players: int) -> Kit:
        kit = game.new_kit(players, decks={"main": "hello cards"})
        back = Face("hello-back.yaml.j2", {}, "back")
        for i, card in enumerate(game.model):
            front = Face("hello-front.yaml.j2", {"card": card}, f"card-{i + 1}/front")
            kit.cards.append(Card(f"card-{i + 1}", card["name"], "main", front, back))
        return kit


RULESET = Hello()
