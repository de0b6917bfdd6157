"""What a generic game prints: each deck's cards (copies included) with their fronts and backs."""

from __future__ import annotations

from typing import Any

from ...contract import LoadedGame
from ...sdk import Card, Face, Kit, Page
from .model import Deck, DeckCard, DeckGame

BackKey = tuple[str, tuple[tuple[str, str], ...]]  # a back's template and the (field, text) pairs it shows


def kit(loaded: LoadedGame[DeckGame], players: int) -> Kit:
    """Return the kit: every deck in game.yaml's order, every card in its file's order, copies together."""
    game = loaded.model
    shared = {"title": game.title, "tagline": game.tagline, "style": game.style}
    result = loaded.new_kit(players, decks={d.id: d.name for d in game.decks}, context=shared)
    for deck in game.decks:
        if deck.per_card_backs:
            result.per_card_backs.add(deck.id)
        if deck.size_at is not None:
            result.size_places[deck.id] = deck.size_at
        context = {"game": shared, "deck": _deck(deck)}
        backs: dict[BackKey, Face] = {}
        for card in deck.cards:
            front = Face(
                card.template,
                {**context, "card": {**card.fields, "art": card.art}, "rich": card.rich},
                f"{card.id}/front",
            )
            back = _back(deck, card, context, backs)
            for copy in range(1, card.copies + 1):
                card_id = card.id if card.copies == 1 else f"{card.id}-{copy}"
                result.cards.append(Card(card_id, card.name, deck.id, front, back, deck.size, deck.shape))
    for board in game.boards:
        face = Face(board.template, {"game": shared, "board": {"id": board.id, "name": board.name}}, board.id)
        for copy in range(1, board.copies + 1):
            name = board.name if board.copies == 1 else f"{board.name} {copy}"
            result.pages.append(Page(f"{board.id}-{copy}", name, face, board.landscape, board.size))
    return result


def _deck(deck: Deck) -> dict[str, Any]:
    w, h = deck.size
    return {"id": deck.id, "name": deck.name, "size": {"w": w, "h": h}, "shape": deck.shape}


def _back(deck: Deck, card: DeckCard, context: dict[str, Any], backs: dict[BackKey, Face]) -> Face:
    """Return the card's back; cards whose backs print the same share one face (drawn once)."""
    shown = {name: card.fields.get(name) for name in card.back.show}
    rich = {name: card.rich.get(name, "") for name in card.back.show}
    key = (card.back.template, tuple(sorted((k, str(v)) for k, v in shown.items())))
    if key not in backs:
        name = f"{deck.id}-back" if not backs else f"{card.id}/back"
        backs[key] = Face(card.back.template, {**context, "card": shown, "rich": rich}, name)
    return backs[key]
