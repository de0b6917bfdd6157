"""One PNG per card face at a chosen resolution, with the layout's bleed or cut at the trim."""

from __future__ import annotations

from . import facefiles
from .common import Game
from .options import ExportOptions


def files(game: Game, options: ExportOptions) -> dict[str, bytes]:
    """Return {deck folder/file: bytes}: fronts, backs and counts.csv of every deck."""
    return facefiles.files(game, lambda deck: None, options.dpi, options.bleed)
