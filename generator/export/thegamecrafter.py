"""The Game Crafter: one RGB PNG per face at the pixel size of TGC's template for the card size, 300 dpi."""

from __future__ import annotations

from ..impose.sizes import CardSize
from . import facefiles
from .common import SHOP_DPI, Game, px
from .options import ExportOptions
from .target import FaceTarget

BLEED_IN = 0.125  # per side, where TGC has no template of its own for a size

# TGC's templates, full size with bleed, portrait (print-specs §1/§2.1, from templative's componentInfo.js).
TEMPLATES = {
    "poker": (825, 1125),
    "poker-euro": (825, 1125),  # TGC prints Euro Poker on the poker template: metric trim, asymmetric bleed
    "bridge": (750, 1125),
    "mini-american": (600, 825),
    "tarot": (900, 1500),
    "square": (1125, 1125),
    "euro-square": (900, 900),
    "jumbo": (1125, 1725),
    "business-us": (1125, 675),  # as printed: landscape
}


def template(size: CardSize) -> tuple[int, int]:
    """Return the pixel size TGC wants for a card of `size` (its template, or trim + 1/8 in a side)."""
    known = TEMPLATES.get(size.name)
    if known is None:
        bleed = 2 * BLEED_IN * 25.4
        return px(size.w + bleed, SHOP_DPI), px(size.h + bleed, SHOP_DPI)
    w, h = known
    return (w, h) if (w >= h) == (size.w >= size.h) or w == h else (h, w)


def is_template(size: CardSize) -> bool:
    """Return True when TGC has a template of its own for this size (else the size is computed)."""
    return size.name in TEMPLATES


def files(game: Game, options: ExportOptions) -> dict[str, bytes]:
    """Return {deck folder/file: bytes} for every deck: faces at TGC's template size and counts.csv."""
    return facefiles.files(game, lambda deck: template(deck.size))


class TheGameCrafter(FaceTarget):
    """The Game Crafter, as an export target."""

    name = "thegamecrafter"
    summary = "The Game Crafter: one RGB PNG per face at the pixel size of TGC's template, 300 dpi, and counts.csv."
    kind = "shop"
    bundled = True

    def made(self, game: Game, options: ExportOptions) -> dict[str, bytes]:
        return files(game, options)


TARGET = TheGameCrafter()
