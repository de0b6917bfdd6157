"""The project's TrueType fonts: registration with ReportLab, metrics and per-character fallback."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, cast

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from .. import schema, yamlsrc
from ..diagnostics import CardpressError, Location, Report
from ..overlay import merge

STYLES = ("regular", "bold", "italic", "bold-italic")
MAX_EDITION_FONT = 20_000_000  # bytes: a full CJK font is about 16 MB; a fan edition's font is untrusted input


@dataclass(frozen=True)
class FontSet:
    """Families by name, each mapping a style to a registered ReportLab font name."""

    families: dict[str, dict[str, str]]
    fallback: str
    default: str
    files: dict[str, Path]  # font name -> TrueType file, registered with ReportLab on first use
    bold: frozenset[str] = frozenset()  # the fonts that are some family's bold

    def resolve(self, family: str | None, bold: bool = False, italic: bool = False) -> str:
        """Return the registered font for a family and style, stepping down to what exists."""
        styles = self.families.get(family or self.default) or self.families[self.default]
        wanted = "bold-italic" if bold and italic else "bold" if bold else "italic" if italic else "regular"
        for style in (wanted, "bold" if bold else "italic", "regular"):
            if style in styles:
                return _register(styles[style], self.files[styles[style]])
        return _register(styles["regular"], self.files[styles["regular"]])

    def fallback_for(self, font: str) -> str:
        """Return the fallback font in the same weight as `font`."""
        return self.resolve(self.fallback, bold=font in self.bold)

    def segments(self, text: str, font: str) -> tuple[tuple[str, str], ...]:
        """Split `text` into runs set in `font` or, for characters it lacks, in the fallback font."""
        return _segments(text, font, self.fallback_for(font))

    def width(self, text: str, font: str, size: float) -> float:
        """Return the advance width of `text` in points, fallback characters included."""
        return sum(_width(t, f) for t, f in self.segments(text, font)) * size


@lru_cache(maxsize=65536)
def _segments(text: str, font: str, spare: str) -> tuple[tuple[str, str], ...]:
    glyphs = _glyphs(font)
    out: list[tuple[str, str]] = []
    for ch in text:
        use = font if ord(ch) in glyphs or ch in " \n" else spare
        if out and out[-1][1] == use:
            out[-1] = (out[-1][0] + ch, use)
        else:
            out.append((ch, use))
    return tuple(out)


@lru_cache(maxsize=65536)
def _width(text: str, font: str) -> float:
    """Return the width of `text` at size 1 (widths scale linearly with size)."""
    return pdfmetrics.stringWidth(text, font, 1000) / 1000


@cache
def _glyphs(font: str) -> frozenset[int]:
    return frozenset(cast(TTFont, pdfmetrics.getFont(font)).face.charToGlyph)  # cardpress registers only TTFonts


_LOADED: dict[tuple[Any, ...], FontSet] = {}


def _register(name: str, path: Path) -> str:
    """Register a font with ReportLab the first time it is needed (parsing a TTF takes a while)."""
    if name not in _REGISTERED:
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except (TTFError, OSError) as exc:
            report = Report()
            report.error(
                "F001",
                f"cannot use font file {path.name}: {exc}",
                hint="fonts must be TrueType (.ttf) files in fonts/ whose licence allows embedding",
            )
            raise CardpressError(report) from None
        _REGISTERED.add(name)
    return name


_REGISTERED: set[str] = set()


def load_fonts(folder: Path, root: Path, editions: Sequence[tuple[str, Path]] = ()) -> FontSet:
    """Read fonts/fonts.yaml and register every font it names (once per process).

    `editions` are (edition id, its fonts/ folder), base first: each folder's fonts.yaml adds families or
    replaces some, naming files in that folder.
    """
    config = folder / "fonts.yaml"
    configs = [config, *(f / "fonts.yaml" for _, f in editions)]
    key = tuple((str(c), c.stat().st_mtime_ns if c.exists() else 0) for c in configs)
    if key in _LOADED:
        return _LOADED[key]
    report = Report()
    display = _rel(config, root)
    source = yamlsrc.load_file(config, display, report)
    homes = {display: (folder, "")}  # which folder (and edition) the files a fonts.yaml names are in
    for gid, own in editions:
        shown = _rel(own / "fonts.yaml", root)
        if not (own / "fonts.yaml").is_file():
            report.error(
                "F003",
                f"{_rel(own, root)}/ has no fonts.yaml naming its font families",
                loc=Location(shown, 1, 1),
                hint="families: {display: {regular: MyFont.ttf}} (only the families the edition adds or replaces)",
            )
            continue
        over = yamlsrc.load_file(own / "fonts.yaml", shown, report)
        if report.ok() and source.data is not None and over.data is not None:
            source = merge(source, over, "the project's fonts.yaml", report)
        homes[shown] = (own, gid)
    if not report.ok() or not schema.check(source, "fonts", report):
        raise CardpressError(report)
    data = source.data
    families: dict[str, dict[str, str]] = {}
    files: dict[str, Path] = {}
    for family, styles in data["families"].items():
        families[family] = {}
        for style, filename in styles.items():
            where = ("families", family, style)
            home, gid = homes.get(source.origin.get(where, source).display, (folder, ""))
            path = home / filename
            if not path.is_file():
                report.error(
                    "F001",
                    f"font file {filename} is not in {_rel(home, root)}/",
                    path=f"families.{family}.{style}",
                    loc=source.loc(where),
                )
                continue
            if gid and path.stat().st_size > MAX_EDITION_FONT:
                report.error(
                    "F001",
                    f"font file {filename} is {path.stat().st_size // 1000} kB; an edition's fonts are at most "
                    f"{MAX_EDITION_FONT // 1_000_000} MB each",
                    path=f"families.{family}.{style}",
                    loc=source.loc(where),
                )
                continue
            name = f"cp-{gid}-{Path(filename).stem}" if gid else f"cp-{Path(filename).stem}"
            families[family][style] = name
            files[name] = path
    for key_name in ("fallback", "default"):
        if data[key_name] not in families:
            report.error(
                "F002",
                f"{key_name} family '{data[key_name]}' is not defined",
                path=key_name,
                loc=source.loc((key_name,)),
            )
    if not report.ok():
        raise CardpressError(report)
    bold = frozenset(styles["bold"] for styles in families.values() if "bold" in styles)
    result = FontSet(families, data["fallback"], data["default"], files, bold)
    _LOADED[key] = result
    return result


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)
