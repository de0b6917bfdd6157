"""Art files from strangers: recognised by content, capped in bytes and pixels, checked once, hashed."""

from __future__ import annotations

import hashlib
import io
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage
    from reportlab.lib.utils import ImageReader

from ..source import safefile
from . import svg

MAX_BYTES = 50 * 1024 * 1024  # a 600-dpi full-bleed tarot card as a PNG is well under this
MAX_PIXELS = 50_000_000  # 8660 × 5773; a full-bleed poker card at 600 dpi is 3.7 million
KINDS = {"png": "PNG", "jpeg": "JPEG", "webp": "WEBP"}  # our name -> Pillow's format name (SVG is no raster)
ORIENTATION = 0x0112  # EXIF tag: how a camera JPEG must be turned to stand upright


class ArtError(ValueError):
    """An image that cannot be used, with a hint on what would work."""

    def __init__(self, message: str, hint: str | None = None, line: int = 0, text: str = ""):
        super().__init__(message)
        self.hint = hint
        self.line, self.text = line, text  # where in the file itself (an SVG's line), when that is known


@dataclass(frozen=True)
class ArtFile:
    """An image that passed the checks: what it is, how big, and a digest of its bytes."""

    path: Path
    kind: str  # png | jpeg | webp | svg
    size: tuple[int, int]  # pixels as seen upright (EXIF orientation applied); an SVG's aspect, in 1/100 pt
    orientation: int  # EXIF orientation 1–8; only JPEGs keep it (they are placed as they are)
    digest: str  # SHA-256 of the file's bytes
    declared_dpi: float | None  # the density the file claims, if any
    bytes: int


def sniff(head: bytes) -> str | None:
    """Return png, jpeg or webp from a file's first bytes, or None for anything else."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    return None


_CHECKED: dict[tuple[Any, ...], ArtFile] = {}
DECODED_LIMIT = 256 * 2**20  # bytes of decoded pixels kept for drawing; past this the oldest are decoded again


class _Decoded:
    """Rasters the check decoded, by digest, until drawing takes them: a first build decodes each file once."""

    def __init__(self) -> None:
        self.kept: dict[str, PILImage] = {}
        self.size = 0  # bytes of pixels in `kept`

    def keep(self, digest: str, im: PILImage) -> None:
        """Keep a decoded raster, letting the oldest go past DECODED_LIMIT bytes of pixels."""
        self.take(digest)
        self.kept[digest] = im
        self.size += _pixel_bytes(im)
        while self.size > DECODED_LIMIT and self.kept:
            self.take(next(iter(self.kept)))

    def take(self, digest: str) -> PILImage | None:
        """Return the raster kept for `digest` and forget it, or None."""
        im = self.kept.pop(digest, None)
        if im is not None:
            self.size -= _pixel_bytes(im)
        return im


_DECODED = _Decoded()


def open_art(path: Path, roots: safefile.Roots | None = None) -> ArtFile:
    """Check an image file and describe it; raise ArtError when it cannot be used.

    Only a regular file inside `roots` (by default the project it lies in) is read, and never more
    than MAX_BYTES of it. Cached by the file's stamp, so a file is read and decoded once however many
    faces use it.
    """
    try:
        _, st = safefile.check(path, roots)
    except safefile.Refused as exc:
        raise ArtError(f"cannot read {path.name}: {exc.reason}", exc.hint) from None
    stamp = (os.fspath(path), st.st_mtime_ns, st.st_size, st.st_ino)
    if stamp in _CHECKED:
        return _CHECKED[stamp]
    if st.st_size > MAX_BYTES:
        raise ArtError(
            f"{path.name} is {st.st_size / 2**20:.1f} MiB; the limit is {MAX_BYTES // 2**20} MiB",
            hint="export the art at 300–600 dpi for its box",
        )
    art = _describe(path, _read(path, roots))
    _remember(_CHECKED, stamp, art)
    return art


def _read(path: Path, roots: safefile.Roots | None = None) -> bytes:
    """Read an art file through the containment checks, as an ArtError when refused."""
    try:
        return safefile.read_bytes(path, MAX_BYTES, roots)
    except safefile.Refused as exc:
        if exc.code == "Y003":
            raise ArtError(
                f"{path.name} is larger than {MAX_BYTES // 2**20} MiB", "export the art at 300–600 dpi for its box"
            ) from None
        raise ArtError(f"cannot read {path.name}: {exc.reason}", exc.hint) from None


def _remember(cache: dict[Any, Any], key: Any, value: Any, limit: int = 64) -> None:
    """Keep a value in a small cache, dropping the oldest (a long watch session sees many versions)."""
    cache[key] = value
    while len(cache) > limit:
        del cache[next(iter(cache))]


def _describe(path: Path, data: bytes) -> ArtFile:
    from PIL import Image, UnidentifiedImageError

    kind = sniff(data[:16])
    if kind is None and svg.looks_like_svg(data):
        return _describe_svg(path, data)
    if kind is None:
        raise ArtError(
            f"{path.name} is not a PNG, JPEG, WebP or SVG image (judged by its content, not its name)",
            hint="save the art as PNG, JPEG, WebP or SVG",
        )
    digest = hashlib.sha256(data).hexdigest()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=[KINDS[kind]]) as im:
                width, height = im.size
                if width * height > MAX_PIXELS:  # checked from the header, before decoding a single pixel
                    raise ArtError(
                        f"{path.name} is {width} × {height} pixels; the limit is {MAX_PIXELS // 1_000_000} million",
                        hint="export the art at 300–600 dpi for its box",
                    )
                orientation = im.getexif().get(ORIENTATION, 1) if kind == "jpeg" else 1
                dpi = im.info.get("dpi")
                im.load()  # a truncated or corrupt file fails here, not half-way through a PDF
                if kind != "jpeg":  # a JPEG is drawn from its bytes, never decoded
                    _DECODED.keep(digest, im.copy())  # a copy: closing the file closes its image
    except ArtError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ArtError(
            f"{path.name} has more than {MAX_PIXELS // 1_000_000} million pixels",
            hint="export the art at 300–600 dpi for its box",
        ) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise ArtError(f"{path.name} cannot be read as {kind.upper()}: {exc}", hint="re-export the image") from None
    if orientation not in range(1, 9):
        orientation = 1
    if orientation in (5, 6, 7, 8):
        width, height = height, width
    declared = float(dpi[0]) if dpi and dpi[0] and dpi[0] > 1 else None
    return ArtFile(path, kind, (width, height), orientation, digest, declared, len(data))


def _describe_svg(path: Path, data: bytes) -> ArtFile:
    """Check an SVG (bounded, nothing run or fetched) and that svglib can draw it; describe it."""
    if len(data) > svg.MAX_BYTES:
        raise ArtError(
            f"{path.name} is {len(data) / 2**20:.1f} MiB of SVG; the limit is {svg.MAX_BYTES // 2**20} MiB",
            hint="simplify the drawing, or export it as PNG",
        )
    try:
        found = svg.check(data)
        _remember(_DRAWINGS, hashlib.sha256(data).hexdigest(), svg.drawing(data))
    except svg.SvgRefused as exc:
        lines = data.decode("utf-8", errors="replace").splitlines()
        text = lines[exc.line - 1] if 0 < exc.line <= len(lines) else ""
        raise ArtError(f"{path.name}: {exc}", exc.hint, exc.line, text) from None
    size = (max(1, round(found.width * 100)), max(1, round(found.height * 100)))
    return ArtFile(path, "svg", size, 1, hashlib.sha256(data).hexdigest(), None, len(data))


_DRAWINGS: dict[str, Any] = {}


def svg_drawing(art: ArtFile) -> Any:
    """Return the ReportLab Drawing of a checked SVG (made once per distinct file content)."""
    if art.digest not in _DRAWINGS:
        data = _read(art.path)
        if hashlib.sha256(data).hexdigest() != art.digest:
            raise ArtError(f"{art.path.name} changed while it was being used; build again")
        svg.check(data)
        _remember(_DRAWINGS, art.digest, svg.drawing(data))
    return _DRAWINGS[art.digest]


_READERS: dict[str, tuple[ImageReader, str | None]] = {}


def pdf_image(art: ArtFile) -> tuple[ImageReader, str | None]:
    """Return (ReportLab ImageReader, mask) for drawing `art`, made once per distinct file content.

    JPEG bytes pass through untouched (DCTDecode). PNG and WebP become lossless Flate pixels: PDF
    cannot hold WebP, and ReportLab re-encodes PNG pixels anyway. Transparency becomes a soft mask.
    """
    if art.digest in _READERS:
        return _READERS[art.digest]
    from PIL import Image, ImageOps
    from reportlab.lib.utils import ImageReader

    data = _read(art.path)
    if hashlib.sha256(data).hexdigest() != art.digest:
        raise ArtError(f"{art.path.name} changed while it was being used; build again")
    if art.kind == "jpeg":
        result: tuple[ImageReader, str | None] = (ImageReader(io.BytesIO(data)), None)
    else:
        decoded = _DECODED.take(art.digest)  # decoded by the check in this run, or not yet
        if decoded is None:
            decoded = Image.open(io.BytesIO(data), formats=[KINDS[art.kind]])
        im = _pdf_mode(ImageOps.exif_transpose(decoded))
        result = (ImageReader(im), "auto" if im.mode == "RGBA" else None)
    _remember(_READERS, art.digest, result)
    return result


def _pixel_bytes(im: PILImage) -> int:
    """Return the bytes a decoded raster holds."""
    return im.width * im.height * len(im.getbands())


def _pdf_mode(im: PILImage) -> PILImage:
    """Convert to L, RGB or RGBA, dropping an alpha channel that is opaque everywhere."""
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        im = im.convert("I").point(lambda v: v / 257).convert("L")
    if im.mode == "P":
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    if im.mode in ("LA", "PA", "RGBa", "La"):
        im = im.convert("RGBA")
    if im.mode == "RGBA":
        low, _ = im.getchannel("A").getextrema()
        if low == 255:
            im = im.convert("RGB")
    if im.mode not in ("L", "RGB", "RGBA"):
        im = im.convert("RGB")
    return im
