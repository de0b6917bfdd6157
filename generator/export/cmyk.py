"""RGB to CMYK for press files: an ICC profile when one is at hand, black as K only, total ink capped.

Pillow's ImageCms (LittleCMS) converts through a CMYK press profile: the one given, or the
"Artifex CMYK SWOP" profile Debian's libgs-common installs. Without one, a plain grey-component
replacement is used and the PDF gets no output intent. Either way neutral greys print on K alone
(black text stays K100, not a muddy four-colour black) and no colour asks for more than MAX_INK.
"""

from __future__ import annotations

import io
import math
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

from reportlab.lib.colors import CMYKColor, Color

if TYPE_CHECKING:
    from PIL import Image

MAX_INK = 2.4  # total area coverage DriveThruCards accepts (240 %)
KNOWN_PROFILES = (
    Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),  # Debian libgs-common: Artifex CMYK SWOP
    Path("/usr/share/color/icc/ghostscript/ps_cmyk.icc"),
)


def find_profile(given: Path | None = None) -> Path | None:
    """Return the CMYK profile to use: the one given, else the first installed one known, else None."""
    if given is not None:
        return given
    return next((p for p in KNOWN_PROFILES if p.is_file()), None)


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
    """Turns RGB colours and images into CMYK, through `profile` (an ICC file) or a plain formula."""

    def __init__(self, profile: Path | None):
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
        """Return the profile's name, or what stands in for one."""
        if self.profile is None:
            return "no ICC profile: grey-component replacement"
        from PIL import ImageCms

        return ImageCms.getProfileDescription(ImageCms.getOpenProfile(str(self.profile))).strip()

    def _colour(self, rgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
        r, g, b = rgb
        if abs(r - g) < 1e-3 and abs(g - b) < 1e-3:  # a grey: K only, so black text is one plate
            return (0.0, 0.0, 0.0, round(1 - r, 4))
        if self._transform is None:
            k = 1 - max(r, g, b)
            c, m, y = ((1 - v - k) / (1 - k) for v in (r, g, b))
        else:
            from PIL import Image, ImageCms

            pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in rgb))
            converted = ImageCms.applyTransform(pixel, self._transform)
            assert converted is not None  # None only when transforming in place
            c, m, y, k = (v / 255 for v in cast("tuple[int, int, int, int]", converted.getpixel((0, 0))))
        c, m, y, k = _capped(c, m, y, k)
        # CMY round down, so rounding never takes the total past the cap
        return (*(math.floor(v * 1e4) / 1e4 for v in (c, m, y)), round(k, 4))  # type: ignore[return-value]

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
        return Image.fromarray(np.round(cmyk * 255).astype(np.uint8), "CMYK")


def _capped(c: float, m: float, y: float, k: float) -> tuple[float, float, float, float]:
    """Return the colour with C, M and Y scaled down so the four inks add up to at most MAX_INK."""
    total = c + m + y + k
    if total <= MAX_INK or c + m + y == 0:
        return c, m, y, k
    scale = max(MAX_INK - k, 0) / (c + m + y)
    return c * scale, m * scale, y * scale, k
