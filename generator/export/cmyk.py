"""RGB to CMYK for press files: one fixed separation by default, an ICC profile only when one is given.

By default every colour and pixel goes through generator.layout.inks' formula (greys on K alone, full
grey-component replacement, total ink capped at MAX_INK): no lookup of what the machine has installed,
so the same game makes the same bytes everywhere. A profile given with `--cmyk-profile` converts
through Pillow's ImageCms (LittleCMS) instead, and the PDF then embeds it as its output intent.
"""

from __future__ import annotations

import io
import math
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

from reportlab.lib.colors import CMYKColor, Color

from ..layout.inks import MAX_INK, capped, separate, sharp

if TYPE_CHECKING:
    from PIL import Image


def profile_problem(path: Path) -> str | None:
    """Return why `path` cannot serve as the CMYK profile (not a file, not ICC, not CMYK), or None when it can."""
    from PIL import ImageCms

    from ..source import safefile

    try:
        data = safefile.read_bytes(path, 64 << 20, roots=[Path(Path(os.path.abspath(path)).anchor)])
        space = ImageCms.ImageCmsProfile(io.BytesIO(data)).profile.xcolor_space.strip()
    except safefile.Refused as exc:
        return exc.message(str(path))
    except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
        return f"{path} is not an ICC colour profile"
    return None if space == "CMYK" else f"{path} is an ICC profile for {space or 'another'} colour, not CMYK"


class Converter:
    """Turns RGB colours and images into CMYK: by the fixed formula, or through `profile` (an ICC file)."""

    def __init__(self, profile: Path | None = None):
        self.profile = profile
        self._transform = None
        if profile is not None:
            from PIL import ImageCms

            self._transform = ImageCms.buildTransform(
                ImageCms.createProfile("sRGB"),
                ImageCms.getOpenProfile(str(profile)),
                "RGB",
                "CMYK",
                renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            )
        self.colour = lru_cache(maxsize=4096)(self._colour)

    @property
    def description(self) -> str:
        """Return the given profile's name (only asked when there is one)."""
        from PIL import ImageCms

        assert self.profile is not None
        return ImageCms.getProfileDescription(ImageCms.getOpenProfile(str(self.profile))).strip()

    def _colour(self, rgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
        if self._transform is None or max(rgb) - min(rgb) < 1e-3:  # greys stay K only through a profile too
            return separate(*rgb)
        from PIL import Image, ImageCms

        pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in rgb))
        converted = ImageCms.applyTransform(pixel, self._transform)
        assert converted is not None  # None only when transforming in place
        c, m, y, k = capped(*(v / 255 for v in cast("tuple[int, int, int, int]", converted.getpixel((0, 0)))))
        return (*(math.floor(v * 1e4) / 1e4 for v in (c, m, y)), round(k, 4))  # type: ignore[return-value]

    def sharp(self, colour: Color) -> CMYKColor:
        """Return text or thin-rule colour as CMYK: K only when it is near black (one plate prints it sharp)."""
        return CMYKColor(*sharp(colour.red, colour.green, colour.blue), alpha=colour.alpha)

    def reportlab(self, colour: object) -> CMYKColor:
        """Return a ReportLab colour as CMYK (a canvas's enforceColorSpace hook: every vector colour passes here)."""
        if isinstance(colour, CMYKColor):
            return colour
        if isinstance(colour, Color):
            c, m, y, k = self.colour((colour.red, colour.green, colour.blue))
            return CMYKColor(c, m, y, k, alpha=colour.alpha)
        raise ValueError(f"not a colour cardpress draws with: {colour!r}")

    def image(self, image: Image.Image) -> Image.Image:
        """Return a Pillow image (L, RGB or RGBA; alpha flattened onto white) as CMYK with capped ink."""
        import numpy as np
        from PIL import Image, ImageCms

        if image.mode in ("RGBA", "LA", "P"):
            image = image.convert("RGBA")
            flat = Image.new("RGB", image.size, (255, 255, 255))
            flat.paste(image, mask=image.getchannel("A"))
            image = flat
        image = image.convert("RGB")
        rgb = np.asarray(image, dtype=np.float32) / 255
        grey = (np.ptp(rgb, axis=2) < 1.5 / 255)[..., None]
        if self._transform is None:
            k = 1 - rgb.max(axis=2, keepdims=True)
            cmy = np.where(k < 1, (1 - rgb - k) / np.maximum(1 - k, 1e-6), 0)
            cmyk = np.concatenate([cmy, k], axis=2)
        else:
            cmyk = np.asarray(ImageCms.applyTransform(image, self._transform), dtype=np.float32) / 255
        k_only = np.concatenate([np.zeros_like(rgb), 1 - rgb[..., :1]], axis=2)
        cmyk = np.where(grey, k_only, cmyk)
        total = cmyk.sum(axis=2, keepdims=True)
        cmy_room = np.maximum(MAX_INK - cmyk[..., 3:], 0)
        scale = np.where(total > MAX_INK, cmy_room / np.maximum(cmyk[..., :3].sum(axis=2, keepdims=True), 1e-6), 1)
        cmyk[..., :3] *= np.minimum(scale, 1)
        # every ink rounds down (past float error), so 8-bit rounding never takes a pixel past the cap
        return Image.fromarray(np.floor(cmyk * 255 + 1e-3).astype(np.uint8), "CMYK")
