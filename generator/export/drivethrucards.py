"""DriveThruCards: one CMYK PDF per deck, back and front pages alternating, page = trim + 1/8 in of bleed.

Every page has a TrimBox 1/8 in inside and a BleedBox on the page edge, no marks; fonts are embedded
TrueType subsets; every vector colour is converted to CMYK as it is set (the canvas's colour hook) and
every image before it is placed. The layout's own 3 mm of bleed is extended to DTC's 3.175 mm by a
CMYK picture of the face, its edge pixels repeated, laid under the drawing (never the card scaled).
With a CMYK profile at hand the PDF carries it as a PDF/X output intent (see the manual's "Exporting" page for what is
left before PDF/X-1a).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..art.files import ArtFile
from ..layout.units import PT_PER_MM
from ..render.draw import Prepared, draw
from ..render.painters import PdfPainter
from .cmyk import Converter, find_profile
from .common import MM_PER_INCH, Deck, Game, extended, rasters
from .options import ExportOptions
from .target import FaceTarget

if TYPE_CHECKING:
    import pikepdf

BLEED = MM_PER_INCH / 8  # mm a side: 1/8 in
UNDERLAY_DPI = 150  # the picture under the drawing shows only in the outer 0.175 mm of bleed
PDFX = "PDF/X-1a:2003"


class CmykPainter(PdfPainter):
    """Draws like the kit, with every art image converted to CMYK (vector colours convert in the canvas)."""

    def __init__(self, canvas: Canvas, converter: Converter):
        super().__init__(canvas)
        self.converter = converter
        self._images: dict[str, ImageReader] = {}

    def source(self, art: ArtFile) -> tuple[ImageReader, str | None, int]:
        """Return the art converted to CMYK (no mask: alpha is flattened), placed as the kit places it."""
        from PIL import Image, ImageOps

        if art.digest not in self._images:
            with Image.open(art.path) as im:
                upright = ImageOps.exif_transpose(im) if art.kind != "jpeg" else im.copy()
                self._images[art.digest] = ImageReader(self.converter.image(upright))
        orientation = art.orientation if art.kind == "jpeg" else 1  # other kinds were turned upright above
        return self._images[art.digest], None, orientation


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
    underlays = _underlays(game, deck, distinct, converter)
    forms: dict[str, str] = {}
    trim = (BLEED * PT_PER_MM, BLEED * PT_PER_MM, (w - BLEED) * PT_PER_MM, (h - BLEED) * PT_PER_MM)
    for card, side in faces:
        key = (card.back if side == "back" else card.front).key
        if key not in forms:
            forms[key] = f"face{len(forms)}"
            prepared = distinct[key]
            canvas.beginForm(forms[key], 0, 0, w * PT_PER_MM, h * PT_PER_MM)
            canvas.drawImage(underlays[key], 0, 0, w * PT_PER_MM, h * PT_PER_MM)
            painter.begin(BLEED * PT_PER_MM, (h - BLEED) * PT_PER_MM)
            draw(prepared, painter, studio.fonts, studio.icons)
            painter.end()
            canvas.endForm()
        canvas.setTrimBox(trim)
        canvas.setBleedBox((0, 0, w * PT_PER_MM, h * PT_PER_MM))
        canvas.doForm(forms[key])
        canvas.showPage()
    canvas.save()
    return finish(buffer.getvalue(), converter)


def _underlays(game: Game, deck: Deck, faces: dict[str, Prepared], converter: Converter) -> dict[str, ImageReader]:
    """Return, per face key, a CMYK picture of the face on the whole page, its bleed extended."""
    from .common import px

    target = (px(deck.size.w + 2 * BLEED, UNDERLAY_DPI), px(deck.size.h + 2 * BLEED, UNDERLAY_DPI))
    images = rasters(game, list(faces.values()), UNDERLAY_DPI)
    return {
        key: ImageReader(converter.image(extended(image, face.doc.bleed, deck.size, UNDERLAY_DPI, target)))
        for (key, face), image in zip(faces.items(), images)
    }


def finish(pdf: bytes, converter: Converter) -> bytes:
    """Add what ReportLab cannot write (with pikepdf): the output intent, and the PDF/X keys when they hold."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        transparent = _transparent(doc)
        if converter.profile is not None:
            icc = doc.make_stream(converter.profile.read_bytes())
            icc.N = 4
            intent = pikepdf.Dictionary(
                Type=pikepdf.Name.OutputIntent,
                S=pikepdf.Name.GTS_PDFX,
                OutputConditionIdentifier=pikepdf.String(converter.description),
                Info=pikepdf.String(converter.description),
                RegistryName=pikepdf.String(""),
                DestOutputProfile=icc,
            )
            doc.Root.OutputIntents = pikepdf.Array([intent])
            if not transparent:
                doc.docinfo[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String(PDFX)
        doc.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
        out = io.BytesIO()
        doc.save(out, deterministic_id=True, compress_streams=True, force_version="1.4")
    return out.getvalue()


def _transparent(doc: pikepdf.Pdf) -> bool:
    """Return True when any page uses a soft mask or a constant alpha below 1 (PDF/X-1a allows neither)."""
    import pikepdf

    for obj in doc.objects:
        if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
            d = obj if isinstance(obj, pikepdf.Dictionary) else obj.stream_dict
            if "/SMask" in d and d.SMask != pikepdf.Name("/None"):
                return True
            for key in ("/ca", "/CA"):
                if key in d and float(d[key]) < 1:
                    return True
    return False


def files(game: Game, options: ExportOptions) -> dict[str, bytes]:
    """Return {deck file: PDF bytes}, one per deck of one card size."""
    converter = Converter(find_profile(options.cmyk_profile))
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
