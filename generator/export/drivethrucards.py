"""DriveThruCards: one CMYK PDF per deck, back and front pages alternating, page = trim + 1/8 in of bleed.

Every page has a TrimBox 1/8 in inside and a BleedBox on the page edge, no marks; fonts are embedded
TrueType subsets; every vector colour is converted to CMYK as it is set (the canvas's colour hook) and
every image before it is placed. The layout's own 3 mm of bleed is extended to DTC's 3.175 mm by
four 300 ppi CMYK strips of the face's picture along the page edges, its edge pixels repeated, laid
under the drawing (never the card scaled). The file is PDF/X-1a:2003 (generator.export.pdfx).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..layout.units import PT_PER_MM
from ..render.draw import Prepared, draw
from . import pdfx
from .cmyk import Converter
from .common import MM_PER_INCH, Deck, Game, extended, rasters
from .options import ExportOptions
from .presspaint import CmykPainter
from .target import FaceTarget

BLEED = MM_PER_INCH / 8  # mm a side: 1/8 in
PRESS_PPI = 300  # the least resolution of every image in the file, at print size
EDGE_MM = 0.5  # how far the edge strips reach under the drawing's own bleed


@dataclass(frozen=True)
class Strip:
    """A picture along one page edge and where it goes: (x, y, width, height) in page points."""

    image: ImageReader
    box: tuple[float, float, float, float]


def deck_pdf(game: Game, deck: Deck, converter: Converter) -> bytes:
    """Return the deck's PDF: for every card (every copy), its back page, then its front page."""
    studio = game.pipeline.studio()
    assert studio is not None and game.kit is not None
    buffer = io.BytesIO()
    rl_config.useA85 = 0
    w, h = deck.size.w + 2 * BLEED, deck.size.h + 2 * BLEED
    canvas = Canvas(
        buffer,
        pagesize=(w * PT_PER_MM, h * PT_PER_MM),
        invariant=1,
        pageCompression=1,
        pdfVersion=(1, 4),
        initialFontName=studio.fonts.resolve(None),  # type: ignore[arg-type]  # types-reportlab says float
        initialFontSize=10,
        enforceColorSpace=converter.reportlab,
    )
    canvas.setTitle(f"{game.kit.title}: {deck.name} ({deck.size.label}) for DriveThruCards")
    canvas.setAuthor(game.kit.credits or game.kit.title)
    canvas.setCreator(f"cardpress {__version__}")
    painter = CmykPainter(canvas, converter)
    faces = [(card, side) for card in deck.cards for side in ("back", "front")]
    distinct: dict[str, Prepared] = {}
    for card, side in faces:
        face = card.back if side == "back" else card.front
        distinct.setdefault(face.key, game.prepared(card, side))
    edges = _edges(game, deck, distinct, converter)
    forms: dict[str, str] = {}
    trim = (BLEED * PT_PER_MM, BLEED * PT_PER_MM, (w - BLEED) * PT_PER_MM, (h - BLEED) * PT_PER_MM)
    for card, side in faces:
        key = (card.back if side == "back" else card.front).key
        if key not in forms:
            forms[key] = f"face{len(forms)}"
            prepared = distinct[key]
            canvas.beginForm(forms[key], 0, 0, w * PT_PER_MM, h * PT_PER_MM)
            for strip in edges[key]:
                canvas.drawImage(strip.image, *strip.box)
            painter.begin(BLEED * PT_PER_MM, (h - BLEED) * PT_PER_MM)
            draw(prepared, painter, studio.fonts, studio.icons)
            painter.end()
            canvas.endForm()
        canvas.setTrimBox(trim)
        canvas.setBleedBox((0, 0, w * PT_PER_MM, h * PT_PER_MM))
        canvas.doForm(forms[key])
        canvas.showPage()
    canvas.save()
    described = converter.description if converter.profile is not None else ""
    return pdfx.finish(buffer.getvalue(), converter.profile, described)


def _edges(game: Game, deck: Deck, faces: dict[str, Prepared], converter: Converter) -> dict[str, list[Strip]]:
    """Return, per face key, four CMYK strips of the face's picture along the page edges, its bleed extended.

    The strips reach from the page edge EDGE_MM past the layout's own bleed, at PRESS_PPI or more, so
    every image in the file prints sharp and the file holds no full-page picture beside the vector drawing.
    """
    w_mm, h_mm = deck.size.w + 2 * BLEED, deck.size.h + 2 * BLEED
    target = (math.ceil(w_mm / MM_PER_INCH * PRESS_PPI), math.ceil(h_mm / MM_PER_INCH * PRESS_PPI))
    w_pt, h_pt = w_mm * PT_PER_MM, h_mm * PT_PER_MM
    out: dict[str, list[Strip]] = {}
    for (key, face), image in zip(faces.items(), rasters(game, list(faces.values()), PRESS_PPI)):
        reach = BLEED - face.doc.bleed
        if reach <= 0:  # the drawing itself reaches the page edge
            out[key] = []
            continue
        picture = extended(image, face.doc.bleed, deck.size, PRESS_PPI, target)
        tx = math.ceil((reach + EDGE_MM) / w_mm * target[0])
        ty = math.ceil((reach + EDGE_MM) / h_mm * target[1])
        sx, sy = w_pt / target[0], h_pt / target[1]  # page points per pixel
        W, H = target
        edges = [  # pixels cut from the picture, and where they go on the page
            ((0, 0, W, ty), (0, h_pt - ty * sy, w_pt, ty * sy)),  # top
            ((0, H - ty, W, H), (0, 0, w_pt, ty * sy)),  # bottom
            ((0, 0, tx, H), (0, 0, tx * sx, h_pt)),  # left
            ((W - tx, 0, W, H), (w_pt - tx * sx, 0, tx * sx, h_pt)),  # right
        ]
        # only the strips are converted to CMYK: the rest of the picture is never placed
        out[key] = [Strip(ImageReader(converter.image(picture.crop(cut))), box) for cut, box in edges]
    return out


def files(game: Game, options: ExportOptions) -> dict[str, bytes]:
    """Return {deck file: PDF bytes}, one per deck of one card size."""
    converter = Converter(options.cmyk_profile)
    return {f"{game.id}-{deck.slug}-dtc.pdf": deck_pdf(game, deck, converter) for deck in game.decks()}


class DriveThruCards(FaceTarget):
    """DriveThruCards, as an export target."""

    name = "drivethrucards"
    summary = "DriveThruCards: one CMYK PDF per deck, one face per page, 1/8 in bleed, TrimBox and BleedBox."
    kind = "shop"
    bundled = True

    def made(self, game: Game, options: ExportOptions) -> dict[str, bytes]:
        return files(game, options)


TARGET = DriveThruCards()
