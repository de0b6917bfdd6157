"""MakePlayingCards (and PrinterStudio): one RGB PNG per face, trim + 36 px a side at 300 dpi (822 × 1122 for poker)."""

from __future__ import annotations

from ..impose.sizes import CardSize
from . import facefiles
from .common import SHOP_DPI, Game, px
from .options import ExportOptions
from .target import FaceTarget

BLEED_PX = 36  # per side at 300 dpi: 0.12 in (print-specs §2.1, from MPC's FAQ as quoted by mpc-autofill)


def template(size: CardSize) -> tuple[int, int]:
    """Return the pixel size MPC wants for a card of `size`: the trim in whole pixels plus 36 px a side."""
    return px(size.w, SHOP_DPI) + 2 * BLEED_PX, px(size.h, SHOP_DPI) + 2 * BLEED_PX


def files(game: Game, options: ExportOptions) -> dict[str, bytes]:
    """Return {deck folder/file: bytes} for every deck: faces at MPC's size and counts.csv."""
    return facefiles.files(game, lambda deck: template(deck.size))


class MakePlayingCards(FaceTarget):
    """MakePlayingCards (and PrinterStudio), as an export target."""

    name = "makeplayingcards"
    summary = (
        "MakePlayingCards (and PrinterStudio): one RGB PNG per face, trim + 36 px a side at 300 dpi, and counts.csv."
    )
    kind = "shop"
    bundled = True

    def made(self, game: Game, options: ExportOptions) -> dict[str, bytes]:
        return files(game, options)


TARGET = MakePlayingCards()
