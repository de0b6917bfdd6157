"""Write stand-in art files for every image a kit names but does not have (`cardpress art --make-missing`)."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..layout.document import LayoutDoc, walk
from ..layout.icons import IconSet
from ..project.output import write_all
from ..render.draw import Prepared
from ..render.fonts import FontSet
from . import placeholder
from .place import PRINT_DPI


def missing(faces: Iterable[Prepared]) -> dict[Path, dict[str, Any]]:
    """Return {file: image element props} for each art file the faces name that does not exist."""
    found: dict[Path, dict[str, Any]] = {}
    for prepared in faces:
        for el in walk(prepared.doc.elements):
            placed = prepared.images.get(id(el))
            if placed and placed.art is None and placed.file is not None and not placed.file.exists():
                found.setdefault(placed.file, el.props)
    return found


def stand_in_png(props: dict[str, Any], fonts: FontSet, icons: IconSet, dpi: float = PRINT_DPI) -> bytes:
    """Return PNG bytes of blueprint stand-in art that fills the element's box at `dpi` or more."""
    from ..render import facepdf, raster

    w, h = props["w"], props["h"]
    doc = LayoutDoc(
        "stand-in", "stand-in", w, h, 0.0, placeholder.artwork(w, h, props.get("glyph"), props.get("colour"))
    )
    pdf = facepdf.write([(Prepared(doc), 0.0)], fonts, icons)
    (image,) = raster.rasterize(pdf, dpi, ceil=True)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True, dpi=(dpi, dpi))
    return out.getvalue()


def make_missing(
    faces: Iterable[Prepared], fonts: FontSet, icons: IconSet, root: Path, dpi: float = PRINT_DPI
) -> list[Path]:
    """Write a stand-in for every missing art file the faces name, as one set inside the game folder `root`.

    Return the files written. A file named through a link (a dangling `art/x.png`, an `art/` leading out) is
    refused before anything is drawn or created.
    """
    todo = sorted(missing(faces).items())
    write_all({}, remove=[file for file, _ in todo], root=root)  # refuses the lot up front: no folder made
    return write_all(((file, stand_in_png(props, fonts, icons, dpi)) for file, props in todo), root=root)
