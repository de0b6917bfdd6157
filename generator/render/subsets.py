"""TrueType fonts whose embedded subsets are tagged from their own content, in every PDF cardpress writes.

ReportLab tags subset n of every font the same (AAAAAA+, AAAAAB+, …), so two fonts' first subsets share a
tag and two files' subsets clash when a shop merges or imposes them. A tag is six upper-case letters
(PDF 1.7, 9.6.4, "Font Subsets"); here it is read off a SHA-256 of the font file and the subset's
characters, so the same subset is the same tag in every file and different subsets differ.
"""

from __future__ import annotations

import hashlib
import operator
from fnmatch import fnmatch
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

settings: Any = rl_config  # the stubs leave out some settings


def tag(font_digest: bytes, subset: list[int]) -> str:
    """Return the six-letter tag of a subset: `subset`'s characters of the font file hashed to `font_digest`."""
    digest = hashlib.sha256(font_digest + ",".join(map(str, subset)).encode()).digest()
    return "".join(chr(ord("A") + b % 26) for b in digest[:6])


_UNKEPT = ("_ttf_data", "filename", "_pdfScale")  # the file's bytes and name, and a function: set again on load


def _pdf_scale(units_per_em: int) -> Any:
    """Return the face's glyph-units-to-PDF-units scale, as ReportLab's parser makes it."""
    return (lambda x: x) if units_per_em == 1000 else partial(operator.mul, 1000 / units_per_em)


class TaggedTTFont(TTFont):
    """A TTFont that writes each subset under a tag made from its content (see the module's docstring)."""

    def __init__(self, name: str, filename: Any, **kwargs: Any):
        super().__init__(name, filename, **kwargs)
        face: Any = self.face  # the stubs leave out the file's bytes
        self.digest = hashlib.sha256(face._ttf_data).digest()

    def parsed(self) -> dict[str, Any]:
        """Return what parsing the file found (its metrics and tables, not its bytes): see `from_parsed`."""
        return {k: v for k, v in vars(self.face).items() if k not in _UNKEPT}

    @classmethod
    def from_parsed(cls, name: str, filename: str, data: bytes, digest: bytes, parsed: dict[str, Any]) -> TaggedTTFont:
        """Return the font `data` makes, from what `parsed` found in it before, without parsing it again.

        ReportLab's TTFont.__init__ (reportlab 4–5) with the face's parse replaced by `parsed`.
        """
        face: Any = TTFontFace.__new__(TTFontFace)
        vars(face).update(parsed, _ttf_data=data, filename=filename, _pdfScale=_pdf_scale(parsed["unitsPerEm"]))
        font = cls.__new__(cls)
        own: Any = font  # ReportLab's untyped internals
        own.fontName, own.face, own.encoding = name, face, ttfonts.TTEncoding()
        own.state = WeakKeyDictionary()
        own._asciiReadable = settings.ttfAsciiReadable
        own.shapable = not any(fnmatch(name, glob) for glob in settings.unShapedFontGlob)
        font.digest = digest
        return font

    def addObjects(self, doc: Any) -> None:  # ReportLab's name
        """Add every subset's Font, FontDescriptor, font file and ToUnicode CMap to `doc`.

        ReportLab's own TTFont.addObjects (reportlab 4–5) with the tag changed: it builds the name inline.
        """
        me: Any = self  # ReportLab's untyped internals
        face: Any = self.face
        try:
            state = self.state[doc]
        except KeyError:
            state = self.state[doc] = TTFont.State(me._asciiReadable)
        state.frozen = 1
        for n, subset in enumerate(state.subsets):
            internal = self.getSubsetInternalName(n, doc)[1:]
            base = f"{tag(self.digest, subset)}+{(face.name + face.subfontNameX).decode('pdfdoc')}"
            font: Any = pdfdoc.PDFTrueTypeFont()
            font.__Comment__ = f"Font {self.fontName} subset {n}"
            font.Name = internal
            font.BaseFont = base
            font.FirstChar = 0
            font.LastChar = len(subset) - 1
            font.Widths = pdfdoc.PDFArray(list(map(face.getCharWidth, subset)))
            cmap = pdfdoc.PDFStream()
            cmap.content = ttfonts.makeToUnicodeCMap(base, subset)
            if doc.compression:
                cmap.filters = [pdfdoc.PDFZCompress]
            font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + base)
            font.FontDescriptor = face.addSubsetObjects(doc, base, subset)
            doc.Reference(font, internal)
            doc.idToObject["BasicFonts"].dict[internal] = font
        del self.state[doc]
