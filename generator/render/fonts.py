"""The project's TrueType fonts: registration with ReportLab, metrics and per-character fallback."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import re
import struct
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, cast

import reportlab
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..diagnostics import CardpressError, Location, Report
from ..editions.overlay import merge
from ..project import cache as disk
from ..project import guard
from ..source import safefile, schema, yamlsrc
from ..source.digest import known_digest, text_digest
from .subsets import TaggedTTFont

STYLES = ("regular", "bold", "italic", "bold-italic")
MAX_FONT_BYTES = 64 * 1024 * 1024  # a full CJK TrueType font is ~20 MB
MAX_EDITION_FONT = 20_000_000  # bytes: a full CJK font is about 16 MB; a fan edition's font is untrusted input
_TABLES = (b"cmap", b"glyf", b"head", b"hhea", b"hmtx", b"loca", b"maxp")  # what drawing and embedding need


@dataclass(frozen=True, eq=False)  # one set per fonts folder (see load_fonts): the same set is the same object
class FontSet:
    """Families by name, each mapping a style to a registered ReportLab font name, and the fallback chain."""

    families: dict[str, dict[str, str]]
    fallback: tuple[str, ...]  # families tried in order for a character the text's own font lacks
    default: str
    files: dict[str, Path]  # font name -> TrueType file, registered with ReportLab on first use
    bold: frozenset[str] = frozenset()  # the fonts that are some family's bold
    _resolved: dict[tuple[str | None, bool, bool], str] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    _chains: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, compare=False, repr=False)

    def resolve(self, family: str | None, bold: bool = False, italic: bool = False) -> str:
        """Return the registered font for a family and style, stepping down to what exists."""
        key = (family, bold, italic)
        found = self._resolved.get(key)  # asked for every word set: remembered after the first
        if found is None:
            found = self._resolved[key] = self._resolve(family, bold, italic)
        return found

    def _resolve(self, family: str | None, bold: bool, italic: bool) -> str:
        name = self._name(family, bold, italic)
        return _register(name, self.files[name])

    def _name(self, family: str | None, bold: bool, italic: bool) -> str:
        """Return the font a family and style step down to, without reading its file."""
        styles = self.families.get(family or self.default) or self.families[self.default]
        wanted = "bold-italic" if bold and italic else "bold" if bold else "italic" if italic else "regular"
        for style in (wanted, "bold" if bold else "italic", "regular"):
            if style in styles:
                return styles[style]
        return styles["regular"]

    def glyphs(self, font: str) -> frozenset[int]:
        """Return the characters `font` draws, reading its file the first time any of them is asked for."""
        return _glyphs(_register(font, self.files[font]))

    def register(self, fonts: set[str]) -> None:
        """Register fonts by name before drawing text that was set in an earlier run (a cached layout)."""
        for name in sorted(fonts):  # in one order, whatever the set's
            _register(name, self.files[name])

    def fallback_for(self, font: str) -> tuple[str, ...]:
        """Return the fallback fonts, in order, in the same weight as `font` (where a family has it). Their
        files are read only when a character is looked for in them (`glyphs`): most text needs none, or the first."""
        chain = self._chains.get(font)
        if chain is None:
            bold = font in self.bold
            chain = self._chains[font] = tuple(
                f for f in dict.fromkeys(self._name(family, bold, False) for family in self.fallback) if f != font
            )
        return chain

    def segments(self, text: str, font: str) -> tuple[tuple[str, str], ...]:
        """Split `text` into runs set in `font` or, for characters it lacks, in the first fallback that has them."""
        return _segments(text, font, self)

    def width(self, text: str, font: str, size: float) -> float:
        """Return the advance width of `text` in points, fallback characters included."""
        segments = self.segments(text, font)
        if len(segments) == 1:  # all in one font (the sum of one width is that width, bit for bit)
            return _width(*segments[0]) * size
        return sum(_width(t, f) for t, f in segments) * size

    def draws(self, text: str, font: str) -> bool:
        """Return True when the registered `font` itself draws every character of `text` (no fallback needed)."""
        return _glyphs(font).issuperset(map(ord, text))

    def advance(self, text: str, font: str, size: float) -> float:
        """Return the advance width of `text` in points, all of it set in `font` (which `draws` it): `width`
        without looking for fallback characters."""
        return _width(text, font) * size

    def undrawable(self, text: str, family: str | None = None, bold: bool = False, italic: bool = False) -> str:
        """Return the characters of `text` that neither the family's font nor any fallback can draw.

        Each such character would print as an empty box. Every one is listed once, in order of first use.
        """
        font = self.resolve(family, bold, italic)
        glyphs = _glyphs(font)
        lacking = set(map(ord, text)).difference(glyphs)
        if not lacking or all(invisible(chr(code)) for code in lacking):
            return ""  # the text's own font draws it all: the fallback fonts need not even be read
        return _undrawable(text, (font, *self.fallback_for(font)), self)

    def tried(self, family: str | None = None, bold: bool = False, italic: bool = False) -> str:
        """Return the font files tried for a character, in order: 'Lato-Regular.ttf, DejaVuSans.ttf, …'."""
        font = self.resolve(family, bold, italic)
        return ", ".join(self.files[f].name for f in (font, *self.fallback_for(font)))


def undrawable(text: str, fonts: FontSet, family: str | None = None, bold: bool = False, italic: bool = False) -> str:
    """Return the characters of `text` no configured font can draw (see FontSet.undrawable)."""
    return fonts.undrawable(text, family, bold, italic)


def glyph_message(missing: str, tried: str = "") -> str:
    """Describe undrawable characters for a diagnostic: `'🚀' (U+1F680 ROCKET)`, at most five of them."""
    shown = [f"'{ch}' (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')})" for ch in missing[:5]]
    more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
    fonts = f" (tried {tried})" if tried else ""
    return f"no font can draw {', '.join(shown)}{more}{fonts}; it would print as an empty box"


def invisible(ch: str) -> bool:
    """Return True for a character that draws nothing on purpose: white space, format controls, variation selectors."""
    code = ord(ch)
    return (
        ch.isspace()
        or unicodedata.category(ch) in ("Cc", "Cf")  # soft hyphen, joiners, bidi marks
        or 0xFE00 <= code <= 0xFE0F  # variation selectors: text or emoji presentation of the character before
        or 0xE0100 <= code <= 0xE01EF
    )


@lru_cache(maxsize=65536)
def _undrawable(text: str, chain: tuple[str, ...], fonts: FontSet) -> str:
    out: dict[str, None] = {}
    for ch in text:
        code = ord(ch)
        if any(code in fonts.glyphs(font) for font in chain) or invisible(ch):  # each file read only if needed
            continue
        out[ch] = None
    return "".join(out)


@lru_cache(maxsize=65536)
def _segments(text: str, font: str, fonts: FontSet) -> tuple[tuple[str, str], ...]:
    glyphs = _glyphs(font)
    if text and glyphs.issuperset(map(ord, text)):  # the font draws every character: one run, as the loop makes
        return ((text, font),)
    out: list[tuple[str, str]] = []
    for ch in text:
        use = font
        if ord(ch) not in glyphs and ch not in " \n":  # only now are the fallback fonts read and registered
            use = next((spare for spare in fonts.fallback_for(font) if ord(ch) in fonts.glyphs(spare)), "")
            if not use:
                if invisible(ch):
                    continue  # no font has it and it draws nothing: leave it out rather than draw a box
                use = font  # no font has it: the coverage check (F004) has already refused the text
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

_TO_UNICODE = ttfonts.makeToUnicodeCMap


def _to_unicode_cmap(fontname: str, subset: Sequence[int]) -> str:
    """Return ReportLab's ToUnicode CMap with characters past U+FFFF written as UTF-16 surrogate pairs.

    ReportLab writes every code point as `<%04X>`, five hex digits for an emoji, which readers cut to four
    (🚀 copied out of the PDF reads 'Ὠ'); a CMap's destination strings are UTF-16BE (PDF 1.7, 9.10.3).
    """
    text = _TO_UNICODE(fontname, subset)
    for code, value in enumerate(subset):
        if value > 0xFFFF:
            pair = chr(value).encode("utf-16-be").hex().upper()
            text = text.replace(f"<{code:02X}> <{value:04X}>", f"<{code:02X}> <{pair}>", 1)
    return text


ttfonts.makeToUnicodeCMap = _to_unicode_cmap  # BMP text (every shipped game) is written exactly as before


_FONT_HINT = "fonts must be TrueType (.ttf) files in fonts/ whose licence allows embedding"


def _register(name: str, path: Path) -> str:
    """Register a font with ReportLab the first time it is needed (parsing a TTF takes a while)."""
    if name not in _REGISTERED:
        try:
            known = known_digest(path)  # by the file's stamp: the digest the faces' keys were taken with, if any
            data = safefile.read_bytes(path, MAX_FONT_BYTES)
            # the same stamp after the read: these are the bytes that digest is of (as git's index trusts a stamp)
            digest = bytes.fromhex(known) if known is not None and known_digest(path) == known else None
            pdfmetrics.registerFont(_parsed(name, path, data, digest))
        except safefile.Refused as exc:
            _fail(path, f"cannot use font file {path.name}: {exc.reason}", exc.hint)
        except (TTFError, OSError, struct.error, ValueError, IndexError, KeyError, TypeError) as exc:
            _fail(path, f"cannot use font file {path.name}: {exc}", _FONT_HINT)
        _REGISTERED.add(name)
    return name


def _parsed(name: str, path: Path, data: bytes, digest: bytes | None = None) -> TaggedTTFont:
    """Return the font in `data` (whose SHA-256 is `digest`, when known), parsed, or rebuilt from what an
    earlier run's parse of the same bytes found.

    Parsing a TrueType file's tables in Python is most of what registering it costs (~330 M instructions
    for Pocket Foundry's six fonts); the kept parse is keyed by the bytes and the ReportLab that parsed them.
    """
    digest = digest or hashlib.sha256(data).digest()
    where = disk.folder("fonts")
    kept = disk.read(_kept_parse(where, digest)) if where else None
    if kept is not None:
        with contextlib.suppress(Exception):  # an entry from another ReportLab's internals: parse again
            return TaggedTTFont.from_parsed(name, str(path), data, digest, pickle.loads(kept))
    handle = io.BytesIO(data)
    handle.name = str(path)  # ReportLab names the embedded file after it, as when it opens the path
    font = TaggedTTFont(name, handle)  # subsets tagged from their content, not AAAAAA+
    _subsettable(font)
    if where is not None:  # only a font that passed: a kept parse is never checked again
        # under the digest of the bytes parsed (the parse hashed them), never one taken by a file's stamp
        disk.write(_kept_parse(where, font.digest), pickle.dumps(font.parsed(), protocol=pickle.HIGHEST_PROTOCOL))
    return font


def _kept_parse(where: Path, digest: bytes) -> Path:
    """Return where the parse of the font whose bytes hash to `digest` is kept, for this Python and ReportLab."""
    return where / f"{text_digest(sys.implementation.cache_tag, reportlab.Version, digest.hex())}.pickle"


def _subsettable(font: TTFont) -> None:
    """Raise if ReportLab could not subset the font when the PDF is saved (its glyph outlines are garbage).

    A table that fails its checksum (cheap to test) is the sign; only then is a trial subset of every glyph
    made, so a font with a harmless wrong checksum is still used.
    """
    try:
        font.face.checksumTables()
    except TTFError as bad:
        try:
            font.face.makeSubset(sorted(font.face.charToGlyph))
        except (struct.error, ValueError, IndexError, KeyError, TypeError):
            raise TTFError(f"it is damaged: {_checked(bad)}, and its glyph outlines cannot be read") from None


def _checked(bad: TTFError) -> str:
    """Return which table failed its checksum, from ReportLab's message ('… invalid checksum 0x… table: glyf …')."""
    found = re.search(r"table: (\S+)", str(bad))
    return f"its '{found[1]}' table fails its checksum" if found else "a table fails its checksum"


def _fail(path: Path, message: str, hint: str | None) -> None:
    report = Report()
    report.error("F001", message, hint=hint, loc=Location(guard.shown(path), 1, 1))
    raise CardpressError(report)


_SHAPES: dict[tuple[str, int, int, int], str | None] = {}  # (real path, mtime, size, inode) -> problem


def font_problem(path: Path, roots: safefile.Roots | None = None) -> str | None:
    """Return why a font file cannot be used (refused, not TrueType, truncated), or None when it looks whole.

    Reads the table directory only, so every configured font is checked on load at little cost: a
    font that is not one fails `validate` and `build` alike, not first when a face happens to use it.
    """
    try:
        real, st = safefile.check(path, roots)
    except safefile.Refused as exc:
        return exc.reason
    stamp = (real, st.st_mtime_ns, st.st_size, st.st_ino)
    if stamp not in _SHAPES:
        try:
            _SHAPES[stamp] = _sfnt_problem(safefile.read_bytes(path, MAX_FONT_BYTES, roots))
        except safefile.Refused as exc:
            _SHAPES[stamp] = exc.reason
    return _SHAPES[stamp]


def _sfnt_problem(data: bytes) -> str | None:
    """Return what is wrong with a TrueType file's header and table directory, or None."""
    kind = data[:4]
    if kind == b"OTTO":
        return "it has PostScript (CFF) outlines; only TrueType outlines can be embedded"
    if kind in (b"wOFF", b"wOF2"):
        return "it is a WOFF web font; convert it to .ttf"
    if kind == b"ttcf":
        return None  # a collection: ReportLab reads its first font, and checks it then
    if kind not in (b"\x00\x01\x00\x00", b"true") or len(data) < 12:
        return "it is not a TrueType font"
    count = int.from_bytes(data[4:6], "big")
    if len(data) < 12 + 16 * count:
        return "it is truncated (its table directory is cut off)"
    tables = set()
    for i in range(count):
        record = data[12 + 16 * i : 28 + 16 * i]
        tag, offset, length = record[:4], int.from_bytes(record[8:12], "big"), int.from_bytes(record[12:16], "big")
        if offset + length > len(data):
            return f"it is truncated (its '{tag.decode('latin-1').strip()}' table runs past the end of the file)"
        tables.add(tag)
    missing = [tag.decode() for tag in _TABLES if tag not in tables]
    if missing:
        return f"it lacks the {', '.join(missing)} table{'s' if len(missing) > 1 else ''} a TrueType font needs"
    return None


_REGISTERED: set[str] = set()


def load_fonts(folder: Path, root: Path, editions: Sequence[tuple[str, Path]] = ()) -> FontSet:
    """Read fonts/fonts.yaml and register every font it names (once per process).

    `editions` are (edition id, its fonts/ folder), base first: each folder's fonts.yaml adds families or
    replaces some, naming files in that folder.
    """
    config = folder / "fonts.yaml"
    folders = [folder, *(f for _, f in editions)]
    key = tuple(
        (str(c), _stamp(c), *(_stamp(f) for f in sorted(c.parent.glob("*.[tT][tT][fFcC]"))))
        for c in (f / "fonts.yaml" for f in folders)
    )
    if key in _LOADED:
        return _LOADED[key]
    report = Report()
    display = _rel(config, root)
    allowed = list(dict.fromkeys([root, folder]))  # the shipped fonts live in the installed package
    source = yamlsrc.load_file(config, display, report, allowed)
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
        over = yamlsrc.load_file(own / "fonts.yaml", shown, report, [root, own])
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
            located: dict[str, Any] = {"path": f"families.{family}.{style}", "loc": source.loc(where)}
            if not os.path.lexists(path):
                report.error("F001", f"font file {filename} is not in {_rel(home, root)}/", **located)
                continue
            problem = font_problem(path, allowed)
            if problem:
                report.error("F001", f"cannot use font file {filename}: {problem}", hint=_FONT_HINT, **located)
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
    named: list[tuple[str, tuple[int, ...], Any]] = [("default", (), data["default"])]
    if isinstance(data["fallback"], str):
        named.append(("fallback", (), data["fallback"]))
    else:
        named += [("fallback", (i,), family) for i, family in enumerate(data["fallback"])]
    for key_name, index, family in named:
        if family not in families:
            report.error(
                "F002",
                f"{key_name} family '{family}' is not defined",
                path=key_name + "".join(f"[{i}]" for i in index),
                loc=source.loc((key_name, *index)),
            )
    if not report.ok():
        raise CardpressError(report)
    bold = frozenset(styles["bold"] for styles in families.values() if "bold" in styles)
    chain = (data["fallback"],) if isinstance(data["fallback"], str) else tuple(data["fallback"])
    result = FontSet(families, chain, data["default"], files, bold)
    _LOADED[key] = result
    return result


def _stamp(path: Path) -> tuple[str, int] | tuple[str, int, int, int]:
    """Return what tells a changed file from an unchanged one (its size and time), without opening it."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return (str(path), 0)
    return (str(path), st.st_mtime_ns, st.st_size, st.st_ino)


def _rel(path: Path, root: Path) -> str:
    try:
        return str(Path(os.path.realpath(path)).relative_to(os.path.realpath(root)))  # a loop is no error
    except ValueError:
        return str(path)
