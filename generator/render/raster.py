"""PDF pages to pixels with pdfium, so every image cardpress makes matches its PDF exactly."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

POINTS_PER_INCH = 72


def rasterize(pdf: bytes, dpi: float, ceil: bool = False) -> Iterator[Image.Image]:
    """Yield each page of `pdf` as an RGB Pillow image at `dpi`, sized round(page inches × dpi).

    With `ceil`, sizes round up instead, so the image holds at least `dpi` across the whole page.

    pdfium rounds bitmap sizes up, so 198 pt at 300/72 makes 826 px rather than 825: scale so the
    rounding lands on the wanted size, render the whole page, and crop the odd pixel off.
    """
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        for page in doc:
            try:
                width, height = page.get_size()
                exact = (width / POINTS_PER_INCH * dpi, height / POINTS_PER_INCH * dpi)
                want = tuple(math.ceil(v - 1e-6) if ceil else round(v) for v in exact)
                scale = max((want[0] - 1e-6) / width, (want[1] - 1e-6) / height)
                image = page.render(scale=scale, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
                if image.size != want:
                    image = image.crop((0, 0, *want))
                yield image
            finally:
                page.close()
    finally:
        doc.close()
