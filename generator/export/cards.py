"""One PNG per card face at a chosen resolution, with the layout's bleed or cut at the trim."""

from __future__ import annotations

from . import facefiles
from .common import Game
from .options import ExportOptions
from .target import FaceTarget


def files(game: Game, options: ExportOptions) -> dict[str, bytes]:
    """Return {deck folder/file: bytes}: fronts, backs and counts.csv of every deck."""
    return facefiles.files(game, lambda deck: None, options.dpi, options.bleed)


class Cards(FaceTarget):
    """Card face PNGs, as an export target."""

    name = "cards"
    summary = (
        "One PNG per card face at a chosen resolution (`--dpi`), with the layout's bleed or cut at the trim (`--trim`)."
    )
    kind = "files"
    bundled = False

    def made(self, game: Game, options: ExportOptions) -> dict[str, bytes]:
        return files(game, options)


TARGET = Cards()
