"""Place the art an image element names: find the file, fit it, judge it, or stand in for it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from ..contract import DEFAULT_ART_POLICY as DEFAULT_POLICY
from ..diagnostics import Diagnostic, Location, Report
from ..layout.document import Element
from ..project.folders import GameDir
from ..source.digest import file_digest
from ..source.yamlsrc import format_path
from . import placeholder
from .files import ArtError, ArtFile, open_art

if TYPE_CHECKING:
    from .fit import Fit

PRINT_DPI = 300  # what print shops ask for at final size
SOFT_DPI = 150  # below this, art is enlarged more than twice past print resolution: pixels show


def default_art(card_id: str) -> str:
    """Return where a card's art lives when its card file names none: art/<id>.png in its folder."""
    return f"art/{card_id}.png"


def card_art(value: str | dict[str, Any] | None, card_id: str) -> dict[str, Any]:
    """Return a card's `art:` (a file, or {file, fit, focus}) as the {src, fit, focus} templates use."""
    spec = value if isinstance(value, dict) else {"file": value or default_art(card_id)}
    return {"src": spec["file"], "fit": spec.get("fit", "cover"), "focus": spec.get("focus")}


@dataclass(frozen=True)
class Placed:
    """What an image element will draw: the art fitted to its box, or stand-in primitives."""

    box: tuple[float, float, float, float]  # x, y, w, h in mm: the clip
    radius: float
    art: ArtFile | None = None
    fit: Fit | None = None
    placeholder: tuple[Element, ...] = ()
    file: Path | None = None  # the file named, once known to lie inside the game folder


class ArtDesk:
    """Resolves, checks and fits the art of one game; remembers which files each placement read."""

    def __init__(self, game: GameDir, policy: str = DEFAULT_POLICY):
        self.game = game
        self.policy = policy
        self._index: dict[tuple[str, str], tuple[str, tuple[Any, ...]]] | None = None

    def place(
        self, el: Element, report: Report, prefix: str, fallback: Location | None
    ) -> tuple[Placed, tuple[str, str | None] | None]:
        """Place one image element; report problems; return it and (file, digest) it depends on."""
        p = el.props
        box = (p["x"], p["y"], p["w"], p["h"])
        src = str(p.get("src") or "").strip()
        stand_in = Placed(box, p.get("radius", 0), placeholder=placeholder.elements(el))
        loc, path = self._where(src) if src else (None, "")
        loc = loc or fallback
        if not src:
            self._missing(report, prefix, "names no art", loc, path)
            return stand_in, None
        probe = Report()
        file = self.game.resolve(src, probe, loc, path)
        if file is None:  # S010: the path leaves the game folder
            report.extend(probe.items)
            return stand_in, None
        # where the file is: a fan edition's own, or the base's it inherits
        shown = self.game.shown(file) if file.is_file() else f"cards/{self.game.id}/{PurePosixPath(src)}"
        stand_in = replace(stand_in, file=file)
        if not file.is_file():
            self._missing(report, prefix, f"{shown} does not exist", loc, path)
            return stand_in, (str(file), None)
        try:
            art = open_art(file)
        except ArtError as exc:
            if exc.line:  # the file's own line that is refused (an SVG's script or reference): shown there
                where = Location(shown, exc.line, max(1, len(exc.text) - len(exc.text.lstrip()) + 1), exc.text)
                report.add(Diagnostic("error", "A004", f"{prefix}{exc}", path, where, exc.hint))
            else:
                report.add(Diagnostic("error", "A004", f"{prefix}{exc}", path, loc, exc.hint))
            return stand_in, (str(file), file_digest(file))  # these bytes were refused: any change asks again
        from .fit import fit  # here, as the other stages a rebuild of unchanged faces skips

        fitted = fit(art.size, box, p.get("fit", "cover"), tuple(p.get("focus", (0.5, 0.5))))
        if art.kind != "svg":  # vectors are sharp at any size
            self._judge(report, prefix, shown, art, fitted, box, loc, path)
        return Placed(box, p.get("radius", 0), art, fitted, file=file), (str(file), art.digest)

    def _missing(self, report: Report, prefix: str, what: str, loc: Location | None, path: str) -> None:
        if self.policy == "placeholder":
            return
        hint = f"add the file, or run `cardpress art {self.game.id} --make-missing` for a stand-in sized for its box"
        if self.policy == "error":  # nothing is drawn: the kit is not written
            report.add(Diagnostic("error", "A001", f"{prefix}{what}", path, loc, hint))
        else:
            report.add(Diagnostic("warning", "A001", f"{prefix}{what}; drew a placeholder", path, loc, hint))

    def _judge(
        self,
        report: Report,
        prefix: str,
        shown: str,
        art: ArtFile,
        fitted: Fit,
        box: tuple[Any, ...],
        loc: Location | None,
        path: str,
    ) -> None:
        """Warn about art too coarse for print; the card still prints, so these are warnings."""
        dpi = fitted.min_dpi
        if dpi >= PRINT_DPI - 0.5:
            return
        from .fit import pixels_for

        need = pixels_for((box[2], box[3]), PRINT_DPI)
        where = (
            f"{art.size[0]} × {art.size[1]} px drawn {fitted.w:.1f} × {fitted.h:.1f} mm "
            f"(box {box[2]:.1f} × {box[3]:.1f} mm)"
        )
        hint = f"supply at least {need[0]} × {need[1]} px (the box at {PRINT_DPI} dpi)"
        if dpi < SOFT_DPI - 0.5:
            report.add(
                Diagnostic(
                    "warning",
                    "A003",
                    f"{prefix}{shown} is upscaled {PRINT_DPI / dpi:.1f}× past print "
                    f"resolution ({dpi:.0f} dpi): {where}; pixels will show",
                    path,
                    loc,
                    hint,
                )
            )
        else:
            report.add(
                Diagnostic(
                    "warning",
                    "A002",
                    f"{prefix}{shown} prints at {dpi:.0f} dpi, below {PRINT_DPI}: {where}; it will look soft",
                    path,
                    loc,
                    hint,
                )
            )

    def _where(self, src: str) -> tuple[Location | None, str]:
        """Find the card-file line that names `src` (or the card whose default art it is)."""
        if self._index is None:
            self._index = {}
            for name, source in self.game.sources.items():
                for keypath, key, value in _scalars(source.data, ()):
                    if key == "file" and len(keypath) > 1 and keypath[-2] == "art":
                        key = "art"  # art: {file: …, focus: …}
                    if key in ("art", "id") and isinstance(value, str):
                        self._index.setdefault((key, value), (name, keypath))
        found = self._index.get(("art", src))
        stem = PurePosixPath(src).stem
        default = found is None and src == default_art(stem) and ("id", stem) in self._index
        if default:
            found = self._index[("id", stem)]  # the card names no art: its id
        if found is None:
            return None, ""
        name, keypath = found
        source = self.game.sources[name]
        from ..source.tablesrc import Table  # here: a game of YAML files reads no tables

        if isinstance(source, Table):  # a CSV table: its cells are shown by column, as every card message does
            return source.loc(keypath), "" if default else str(keypath[-1])
        return source.loc(keypath), format_path(keypath[:-1] if default else keypath)


def _scalars(data: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any, Any]]:
    """Yield (path, key, value) for every scalar under a mapping key in loaded YAML data."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (dict, list)):
                yield from _scalars(value, path + (key,))
            else:
                yield path + (key,), key, value
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _scalars(value, path + (i,))
