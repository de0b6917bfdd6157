"""`cardpress preflight`: check exported files against each shop's requirements before they are uploaded.

`run(root, game, shops, out)` reads what `cardpress export` wrote under OUT/<game>/<target>/ and returns
every check (a PASS/FAIL line each) and a report with one diagnostic per problem: K001 for a broken
requirement (an error), K003 for one a shop may still accept (a warning), K002 when there is nothing to
check. `export` calls `check` on the files it is about to write and writes none when one fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Report
from ..pipeline import resolve_games
from .common import Game
from .shopchecks import CHECKERS, TARGETS, Check, Files

SHOPS = tuple(CHECKERS)  # dtc, tgc, mpc, tts
SHOP_OF = {target: shop for shop, target in TARGETS.items()}  # export target name -> shop


@dataclass
class Preflight:
    """Every check made, and the report of what failed."""

    checks: list[Check] = field(default_factory=list)
    report: Report = field(default_factory=Report)

    def lines(self) -> list[str]:
        """Return one PASS/FAIL/WARN line per check."""
        return [check.line() for check in self.checks]


def check(shop: str, files: Files, game: Game | None, folder: Path) -> Preflight:
    """Return the shop's checks of `files` ({name inside `folder`: bytes}), with a diagnostic per problem."""
    result = Preflight(list(CHECKERS[shop](files, game, folder)))
    for item in result.checks:
        where = _shown(folder / item.file if item.file != "." else folder)
        for problem in item.problems:
            message = f"{shop} {item.name}: {problem}"
            if item.severity == "error":
                result.report.error(item.code or "K001", message, path=where, hint=HINTS.get(item.name))
            else:
                result.report.warning(item.code or "K003", message, path=where, hint=HINTS.get(item.name))
    return result


def _shown(path: Path) -> str:
    """Return a path as diagnostics show it: relative to the current folder when it is inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def run(root: Path, game_id: str | None, shops: Sequence[str], out: Path) -> Preflight:
    """Check every named game's exported files for every shop in `shops`."""
    from .options import ExportOptions
    from .target import ExportJob

    result = Preflight()
    for gid in resolve_games(root, game_id):
        job = ExportJob(root, gid, ExportOptions(out=out))
        game = job.game()
        if game.kit is None:
            result.report.extend(game.report.items)
            continue
        for shop in shops:
            folder = out / gid / TARGETS[shop]
            files = _read(folder)
            if not files:
                result.report.error(
                    "K002",
                    f"{shop}: nothing exported in {folder}",
                    hint=f"run `cardpress export {gid} --to {TARGETS[shop]}` first",
                )
                continue
            found = check(shop, files, game, folder)
            result.checks += found.checks
            result.report.extend(found.report.items)
    return result


def _read(folder: Path) -> Files:
    """Return every regular file under `folder` as {relative name: bytes} (README and notes left out)."""
    if not folder.is_dir():
        return {}
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink() and path.suffix.lower() in (".pdf", ".png", ".json", ".csv")
    }


HINTS = {
    "PDF/X-1a:2003 keys": "export again with `cardpress export GAME --to drivethrucards` (it writes PDF/X-1a:2003)",
    "page, trim and bleed": "DriveThruCards wants trim + 1/8 in of bleed a side, with a TrimBox and a BleedBox",
    "colour spaces": "DriveThruCards prints CMYK: every colour and image must be DeviceCMYK or grey",
    "total ink ≤ 240 %": "lighten the darkest colours, or let cardpress convert them (it caps ink at 240 %)",
    "images ≥ 300 ppi at print size": "use art with more pixels: 300 per inch of its printed width",
    "fonts embedded": "every font must be embedded",
    "image URLs": "TTS loads images by URL: file:///… for your own machine, https://… to share",
    "small text on at most two inks": "set it at 9 pt or more, or in a colour nearer black, a grey or one or two inks",
    "face images": "export again: each face must be the shop's template size, RGB, 300 dpi",
}
