"""The rules as PDFs of their own: full pages and a folded booklet for home, booklet-size pages for print shops.

The bundle carries the home ones under rules/; every print-shop target adds the shop ones to its files (a shop
prints a rulebook from single pages at the booklet's size, A5 or half-Letter, and imposes them itself).
"""

from __future__ import annotations

from ..impose.sheets import PAPERS
from ..render import rulespages
from ..render.rulesheets import BOOKLET_PAGE
from .common import Game

HOME = ("a4", "letter")  # full pages, and a booklet folded from each paper
SHOP = ("a5", "half-letter")  # single pages at a booklet's size


def _book(game: Game, fmt: str) -> rulespages.RulesBook | None:
    kit, studio = game.kit, game.pipeline.studio()
    if kit is None or kit.rules is None or studio is None:
        return None
    style = kit.context.get("style", {})
    return rulespages.typeset(kit.rules, fmt, kit.title, style, kit.text_icons, studio.fonts, studio.icons)


def home(game: Game) -> dict[str, bytes]:
    """Return the rules on A4 and Letter pages and as a booklet on each: {file name: PDF bytes}, {} without rules."""
    out: dict[str, bytes] = {}
    for paper in HOME:
        pages, folded = _book(game, paper), _book(game, BOOKLET_PAGE[paper])
        if pages is None or folded is None or game.kit is None:
            return {}
        _, w, h = PAPERS[paper]
        out[f"{game.id}-rules-{paper}.pdf"] = rulespages.pdf(pages, game.kit.title, game.kit.credits)
        out[f"{game.id}-rules-booklet-{paper}.pdf"] = rulespages.booklet_pdf(
            folded, (w, h), game.kit.title, game.kit.credits
        )
    return out


def shop(game: Game) -> dict[str, bytes]:
    """Return the rules as single pages at each booklet size: {file name: PDF bytes}, {} without rules."""
    out: dict[str, bytes] = {}
    for fmt in SHOP:
        book = _book(game, fmt)
        if book is None or game.kit is None:
            return {}
        out[f"{game.id}-rules-{fmt}.pdf"] = rulespages.pdf(book, game.kit.title, game.kit.credits)
    return out
