"""A contact sheet: every proof of a game on one image, in print order, each labelled with its face."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont


class Labelled(Protocol):
    """What a thumbnail is labelled with: the face's title, and its key in small type."""

    @property
    def title(self) -> str: ...

    @property
    def key(self) -> str: ...


THUMB_HEIGHT = 330  # px per row of thumbnails
GAP = 24  # px between thumbnails and around the sheet
LABEL = 44  # px under each thumbnail for its two label lines
ROW_WIDTH = 6 * 241 + 5 * GAP  # six poker cards across
PAPER = (236, 234, 229)
INK = (42, 38, 34)
QUIET = (110, 104, 98)


def thumbnail(image: Image.Image) -> Image.Image:
    """Return a proof scaled to the contact sheet's row height."""
    from PIL import Image

    width = max(1, round(image.width * THUMB_HEIGHT / image.height))
    return image.convert("RGB").resize((width, THUMB_HEIGHT), Image.Resampling.LANCZOS, reducing_gap=2.0)


def contact_sheet(thumbs: Sequence[tuple[Labelled, Image.Image]], title: str, fonts_dir: Path | None = None) -> bytes:
    """Return PNG bytes of a contact sheet of (entry, thumbnail) pairs, in rows, each labelled."""
    from PIL import Image, ImageDraw

    rows: list[list[Any]] = [[]]
    used = 0
    for entry, thumb in thumbs:
        if rows[-1] and used + GAP + thumb.width > ROW_WIDTH:
            rows.append([])
            used = 0
        used += (GAP if rows[-1] else 0) + thumb.width
        rows[-1].append((entry, thumb))
    head = 56
    width = GAP * 2 + max([ROW_WIDTH] + [t.width for _, t in thumbs])
    height = head + GAP + len(rows) * (THUMB_HEIGHT + LABEL + GAP)
    sheet = Image.new("RGB", (width, height), PAPER)
    pen = ImageDraw.Draw(sheet)
    big, small, bold = (
        _font(fonts_dir, "Lato-Bold.ttf", 26),
        _font(fonts_dir, "Lato-Regular.ttf", 15),
        _font(fonts_dir, "Lato-Bold.ttf", 15),
    )
    pen.text((GAP, GAP), title, fill=INK, font=big)
    y = head + GAP
    for row in rows:
        x = GAP
        for entry, thumb in row:
            sheet.paste(thumb, (x, y))
            pen.rectangle((x - 1, y - 1, x + thumb.width, y + thumb.height), outline=(200, 196, 190))
            pen.text((x, y + THUMB_HEIGHT + 6), _fit(pen, entry.title, bold, thumb.width), fill=INK, font=bold)
            pen.text((x, y + THUMB_HEIGHT + 24), _fit(pen, entry.key, small, thumb.width), fill=QUIET, font=small)
            x += thumb.width + GAP
        y += THUMB_HEIGHT + LABEL + GAP
    out = io.BytesIO()
    sheet.save(out, "PNG", compress_level=3)
    return out.getvalue()


def _font(folder: Path | None, name: str, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    try:
        return ImageFont.truetype(str(folder / name), size) if folder else ImageFont.load_default(size)
    except OSError:
        return ImageFont.load_default(size)


def _fit(pen: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int) -> str:
    """Shorten `text` with an ellipsis until it fits `width` pixels."""
    if pen.textlength(text, font=font) <= width:
        return text
    while text and pen.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"
