"""SVG art from strangers: checked before svglib reads it, then drawn as vectors (a ReportLab Drawing).

An SVG is XML, so the checks are the ones an XML document from outside needs (OWASP's XXE and XML bomb
advice): no DOCTYPE (so no entity can expand or reach a file), no network or file access while parsing,
and a bound on the elements once every <use> is expanded (the SVG form of the billion-laughs bomb). It
may not run or embed anything: no <script>, no event attributes, no <foreignObject>, and no reference
outside itself (href, url() and @import only to `#fragment`s of the same file).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

MAX_BYTES = 5 * 1024 * 1024  # an icon or a frame drawn in a vector tool is well under this
MAX_ELEMENTS = 20_000  # once <use> references are expanded
MAX_DEPTH = 64
SVG = "http://www.w3.org/2000/svg"
REFUSED = {"script", "foreignObject", "handler", "iframe", "embed", "object"}
TEXT = {"text", "tspan", "textPath", "tref"}
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.I)
_IMPORT = re.compile(r"@import", re.I)


class SvgRefused(ValueError):
    """An SVG that will not be drawn, with the line of the file that says why (0: the file as a whole)."""

    def __init__(self, message: str, line: int = 0, hint: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.hint = hint


@dataclass(frozen=True)
class SvgArt:
    """A checked SVG: its size in points (for fitting) and how many elements it draws."""

    width: float
    height: float
    elements: int


def looks_like_svg(head: bytes) -> bool:
    """Return True when a file's first bytes are those of an SVG document (XML whose root is <svg>)."""
    text = head[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return text.startswith((b"<?xml", b"<svg", b"<!--", b"<!DOCTYPE svg")) and b"<svg" in head[:4096]


def check(data: bytes) -> SvgArt:
    """Check an SVG's bytes; raise SvgRefused with the offending line, or return its size."""
    root = _parse(data)
    ids: dict[str, Any] = {}
    for el in root.iter():
        if not isinstance(el.tag, str):  # a processing instruction such as <?xml-stylesheet href=…?>
            raise SvgRefused("a processing instruction is refused (it can fetch a stylesheet)", el.sourceline or 0)
        _element(el)
        if el.get("id"):
            ids.setdefault(el.get("id"), el)
    depth = max((len(list(el.iterancestors())) for el in root.iter()), default=0)
    if depth > MAX_DEPTH:
        raise SvgRefused(f"elements nest {depth} deep; the limit is {MAX_DEPTH}")
    try:
        count = _expanded(root, ids)
    except RecursionError:
        raise SvgRefused("its <use> references nest too deep to expand", 0, "simplify the drawing") from None
    width, height = _size(root)
    return SvgArt(width, height, count)


def _parse(data: bytes) -> Any:
    from lxml import etree  # here, not at import: only SVG art needs lxml

    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_comments=True
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise SvgRefused(f"it is not well-formed XML: {exc.msg}", exc.lineno or 0) from None
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None:
        raise SvgRefused(
            "a DOCTYPE is refused: its entities can expand without bound or name files",
            1,
            "export the SVG without a DOCTYPE (vector tools' 'plain SVG')",
        )
    if etree.QName(root).namespace != SVG or etree.QName(root).localname != "svg":
        raise SvgRefused(f"its root element is <{etree.QName(root).localname}>, not an SVG <svg>", root.sourceline or 0)
    return root


def _element(el: Any) -> None:
    """Refuse an element that runs, embeds or fetches something."""
    from lxml import etree

    name = etree.QName(el).localname
    line = el.sourceline or 0
    if name in REFUSED:
        raise SvgRefused(f"<{name}> is refused: cardpress draws no scripts or embedded documents", line)
    if name in TEXT:
        raise SvgRefused(
            f"<{name}> is refused: text in an SVG would print in a font that is neither embedded nor checked",
            line,
            "convert the text to paths in the vector tool (Inkscape: Path > Object to Path), or set it in the template",
        )
    for attr, value in el.attrib.items():
        local = etree.QName(attr).localname
        if local.lower().startswith("on"):
            raise SvgRefused(f"the event attribute {local}= is refused: cardpress runs no scripts", line)
        if local == "href" and not value.strip().startswith("#"):
            raise SvgRefused(
                f"<{name}> refers to '{value[:60]}' outside the file: external references are refused",
                line,
                "embed what it draws in the SVG itself (raster images: export the art as PNG instead)",
            )
        _urls(value, name, line)
    if name == "style" and el.text:
        _urls(el.text, name, line)
        if _IMPORT.search(el.text):
            raise SvgRefused("@import in a <style> is refused: it fetches another stylesheet", line)


def _urls(text: str, name: str, line: int) -> None:
    for match in _URL.finditer(text):
        if not match.group(2).strip().startswith("#"):
            raise SvgRefused(f"<{name}> uses url({match.group(2)[:60]}) outside the file: refused", line)


def _expanded(root: Any, ids: dict[str, Any]) -> int:
    """Return how many elements the drawing has once every <use> is expanded; refuse a bomb or a cycle."""
    from lxml import etree

    sizes: dict[str, int] = {}
    visiting: set[str] = set()
    tree = root.getroottree()

    def size(el: Any) -> int:
        key = tree.getpath(el)  # lxml makes a new proxy object per visit: id() names no element for long
        if key in sizes:
            return sizes[key]
        if key in visiting:
            raise SvgRefused(f"<{etree.QName(el).localname}> refers back to itself through <use>", el.sourceline or 0)
        visiting.add(key)
        total = 1 + sum(size(child) for child in el if isinstance(child.tag, str))
        if etree.QName(el).localname == "use":
            href = el.get("href") or el.get("{http://www.w3.org/1999/xlink}href") or ""
            target = ids.get(href.strip()[1:])
            if target is not None:
                total += size(target)
        visiting.discard(key)
        if total > MAX_ELEMENTS:
            raise SvgRefused(
                f"it draws more than {MAX_ELEMENTS:,} elements once its <use> references are expanded "
                "(an SVG bomb, or a drawing too complex for a card)",
                el.sourceline or 0,
                "simplify the drawing, or export it as PNG",
            )
        sizes[key] = total
        return total

    return size(root)


def _size(root: Any) -> tuple[float, float]:
    """Return the drawing's width and height in points from its viewBox or width/height (for its aspect)."""
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        try:
            w, h = float(box[2]), float(box[3])
            if w > 0 and h > 0:
                return w, h
        except ValueError:
            pass
    try:
        w = float(re.sub(r"[a-z%]+$", "", root.get("width", "")))
        h = float(re.sub(r"[a-z%]+$", "", root.get("height", "")))
    except ValueError:
        raise SvgRefused(
            "it has neither a viewBox nor a width and height: its size is unknown", root.sourceline or 0
        ) from None
    if w <= 0 or h <= 0:
        raise SvgRefused("its width and height must be positive", root.sourceline or 0)
    return w, h


def drawing(data: bytes) -> Any:
    """Return the checked SVG as a ReportLab Drawing (vectors), or raise SvgRefused when svglib cannot read it."""
    import logging

    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").addHandler(logging.NullHandler())  # what it cannot draw is not the user's terminal's
    found = svg2rlg(io.BytesIO(data))  # not a path: svglib then resolves no file reference either
    if found is None or not found.width or not found.height:
        raise SvgRefused("svglib cannot draw it")
    return found
