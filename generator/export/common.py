"""What every export target shares: a game carried through the pipeline, its decks, faces as pixels, file names."""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Report
from ..impose.sizes import CardSize
from ..kit import Card, Kit
from ..pipeline import Pipeline
from ..render.draw import Prepared

if TYPE_CHECKING:
    from PIL import Image

SHOP_DPI = 300
MM_PER_INCH = 25.4


@dataclass
class Deck:
    """One shuffled deck of one card size: its cards in kit order."""

    id: str
    name: str
    size: CardSize
    cards: list[Card]

    @property
    def size_name(self) -> str:
        """Return the size as file names say it: the preset, or e.g. '70x120mm'."""
        return size_slug(self.size)

    @property
    def slug(self) -> str:
        """Return the deck's file-name stem: its id and size, e.g. 'critters-poker'."""
        return f"{slug(self.id)}-{self.size_name}"

    def fronts(self) -> list[Card]:
        """Return one card per distinct front, in kit order (copies print the same face)."""
        seen: dict[str, Card] = {}
        for card in self.cards:
            seen.setdefault(card.front.key, card)
        return list(seen.values())

    def shared_back(self) -> bool:
        """Return True when every card of the deck prints the same back."""
        return len({card.back.identity for card in self.cards}) == 1


@dataclass
class Game:
    """A game laid out for export: its pipeline, kit and faces; `report` holds every problem."""

    pipeline: Pipeline
    kit: Kit | None = None
    faces: dict[str, Prepared | None] = field(default_factory=dict)
    images: dict[tuple[object, ...], bytes] = field(default_factory=dict)  # PNGs made once, shared by targets

    @property
    def report(self) -> Report:
        return self.pipeline.report

    @property
    def id(self) -> str:
        return self.pipeline.game_id

    def decks(self) -> list[Deck]:
        """Return every (deck, card size) run of the kit, in kit order."""
        from ..impose.plan import card_runs

        assert self.kit is not None
        return [
            Deck(deck, self.kit.decks.get(deck, deck), cards[0].size, cards)
            for (deck, _), cards in card_runs(self.kit).items()
        ]

    def prepared(self, card: Card, side: str) -> Prepared:
        """Return the laid-out front or back of `card`."""
        face = card.front if side == "front" else card.back
        found = self.faces[face.key]
        assert found is not None
        return found


def laid_out(pipeline: Pipeline) -> Game:
    """Run the pipeline to the layout stage; the Game's kit is None when anything had an error."""
    game = Game(pipeline)
    kit, faces = pipeline.kit(), pipeline.layout()
    if kit is not None and faces is not None and pipeline.report.ok():
        game.kit, game.faces = kit, faces
    return game


def slug(text: str) -> str:
    """Return `text` as a safe file-name part: lower-case letters, digits and dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def size_slug(size: CardSize) -> str:
    """Return a size as a file-name part: 'poker', 'tarot-landscape' or '70x120mm'."""
    if size.name:
        turned = (size.w > size.h) != (size.name.startswith("business"))
        return size.name + ("-landscape" if turned and size.w != size.h else "")
    return f"{size.w:g}x{size.h:g}mm".replace(".", "_")


def px(mm: float, dpi: float) -> int:
    """Return a length in whole pixels at `dpi`."""
    return round(mm / MM_PER_INCH * dpi)


def rasters(game: Game, prepared: Sequence[Prepared], dpi: float) -> Iterator[Image.Image]:
    """Yield each prepared face rasterized at `dpi` as an RGB image of trim + its layout bleed (one at a
    time: a 90-card deck at 300 dpi would hold half a gigabyte of pixels at once)."""
    from ..layout.limits import SAFE
    from ..render import facepdf, raster

    if not prepared:
        return
    studio = game.pipeline.studio()
    assert studio is not None
    pdf = facepdf.write([(p, SAFE) for p in prepared], studio.fonts, studio.icons)
    yield from raster.rasterize(pdf, dpi)


def trimmed(image: Image.Image, bleed_mm: float, size: CardSize, dpi: float) -> Image.Image:
    """Return the trim of a face raster that has `bleed_mm` on every side, exactly its size in pixels."""
    b = bleed_mm / MM_PER_INCH * dpi
    w, h = px(size.w, dpi), px(size.h, dpi)
    left, top = round(b), round(b)
    box = image.crop((left, top, left + w, top + h))
    return box


def extended(image: Image.Image, bleed_mm: float, size: CardSize, dpi: float, target: tuple[int, int]) -> Image.Image:
    """Return a face raster on a `target`-pixel canvas, its trim centred and its bleed extended (never scaled).

    The layout's own bleed is kept; past it, the outermost row and column of pixels are repeated, as
    print shops ask for art that does not reach their bleed line.
    """
    import numpy as np
    from PIL import Image

    pixels = np.asarray(image)
    b = bleed_mm / MM_PER_INCH * dpi
    tw, th = size.w / MM_PER_INCH * dpi, size.h / MM_PER_INCH * dpi
    # the trim's top-left corner lands at (W - tw) / 2 on the target, and sits at b in the raster
    left = math.floor((target[0] - tw) / 2 - b + 0.5)
    top = math.floor((target[1] - th) / 2 - b + 0.5)
    right = target[0] - left - pixels.shape[1]
    bottom = target[1] - top - pixels.shape[0]
    # a negative pad means the shop's bleed is narrower than the layout's: crop instead
    crop = pixels[max(0, -top) : pixels.shape[0] - max(0, -bottom), max(0, -left) : pixels.shape[1] - max(0, -right)]
    padded = np.pad(crop, ((max(0, top), max(0, bottom)), (max(0, left), max(0, right)), (0, 0)), mode="edge")
    return Image.fromarray(padded, "RGB")


def png(image: Image.Image, dpi: float | None = None) -> bytes:
    """Return PNG bytes with no metadata but the resolution: the same pixels make the same bytes."""
    out = io.BytesIO()
    kwargs = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(out, "PNG", optimize=False, compress_level=6, **kwargs)
    return out.getvalue()


def relative(files: dict[Path, bytes], folder: Path) -> list[str]:
    """Return the written files' names relative to `folder`, sorted."""
    return sorted(str(p.relative_to(folder)) for p in files)
