"""Refuse a write that would go through a link, or outside the folder the write belongs in.

A fan edition is a stranger's folder: a link in it (a dangling `art/spark.png`, an `art/` that leads
elsewhere) must never make cardpress create or replace a file outside the project or the chosen output
folder. The folder a write belongs in (its root) is the caller's choice and may itself be reached through a
link (the user chose it); every part of the path below it that exists must be a real folder, and the file
itself must not be a link.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from ..diagnostics import Location, Report

Roots = Path | Sequence[Path]


def _roots(root: Roots) -> list[str]:
    return [os.path.abspath(r) for r in ([root] if isinstance(root, (str, os.PathLike)) else root)]


def problem(path: Path, root: Roots) -> tuple[Path, str] | None:
    """Return (the part to blame, why) when writing `path` is refused, or None when it may be written."""
    target = os.path.abspath(path)
    bases = [r for r in _roots(root) if target.startswith(r.rstrip(os.sep) + os.sep)]
    if not bases:
        folders = " or ".join(shown(Path(r)) for r in _roots(root))
        return Path(target), f"it lies outside {folders}"
    base = max(bases, key=len)
    part = base
    for name in Path(target).relative_to(base).parts:
        part = os.path.join(part, name)
        try:
            mode = os.lstat(part).st_mode
        except OSError:
            return None  # missing: made new, by us, as real folders (a file in the way is the writer's to name)
        if stat.S_ISLNK(mode):
            what = "it" if part == target else shown(Path(part))
            return Path(part), f"{what} is a symbolic link (to {os.readlink(part)})"
        if not stat.S_ISDIR(mode):
            return None
    return None


def base_of(path: Path, root: Roots) -> str:
    """Return the root (made absolute) that `path` lies in; the first root when it lies in none."""
    target = os.path.abspath(path)
    bases = [r for r in _roots(root) if target.startswith(r.rstrip(os.sep) + os.sep)]
    return max(bases, key=len) if bases else _roots(root)[0]


def refuse(paths: Sequence[Path], root: Roots) -> Report:
    """Return a report of one located error (code O002) per path that may not be written."""
    report = Report()
    for path in paths:
        found = problem(path, root)
        if found is not None:
            blame, why = found
            report.error(
                "O002",
                f"cannot write {shown(path)}: {why}",
                loc=Location(shown(blame), 1, 1),
                hint="cardpress never writes through a link; replace the link with a real file or folder",
            )
    return report


def shown(path: Path) -> str:
    """Return a path relative to the working folder where it lies below it, for messages."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except ValueError:
        return str(path)
