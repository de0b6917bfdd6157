"""The lab reports a game has written (simulate, sweep, compare) under OUT/<game>/, found for the preview page.

A report is an HTML page with a JSON file of the same stem beside it (`report.html` + `report.json`,
`sweep.html` + `sweep.json`, `compare.html` + `compare.json`). Only the files found here may be served: each
report's HTML, Markdown and JSON and its own charts; nothing else on disk is reachable through them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_DEPTH = 4  # OUT/<game>/sweep/<what>/sweep.html is three folders down
MAX_REPORTS = 20  # the newest ones are listed
MAX_JSON_BYTES = 5_000_000  # a report's JSON is read for its title only when it is no bigger
SKIP = {"proofs"}  # the preview's own images
KINDS = {"report": "simulation", "sweep": "sweep", "compare": "comparison"}
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".json": "application/json",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}


@dataclass(frozen=True)
class Report:
    """One report page: where it is (relative to OUT/<game>/), what it is, and when it was written."""

    path: str  # posix, relative to the game's output folder
    title: str
    kind: str
    modified: float  # seconds since the epoch

    def to_json(self, game: str) -> dict[str, Any]:
        """Return the report as the page lists it, with its URL on the preview server."""
        return {
            "title": self.title,
            "kind": self.kind,
            "path": self.path,
            "modified": self.modified,
            "url": f"/reports/{game}/{self.path}",
        }


def latest(folder: Path, limit: int = MAX_REPORTS) -> list[Report]:
    """Return the reports under `folder` (a game's output folder), newest first."""
    found = []
    for html in _pages(folder):
        data = html.with_suffix(".json")
        try:
            modified = html.stat().st_mtime
            size = data.stat().st_size
        except OSError:
            continue
        if data.is_symlink():
            continue
        title = html.stem
        if size <= MAX_JSON_BYTES:
            try:
                title = str(json.loads(data.read_text(encoding="utf-8")).get("title") or title)
            except (OSError, ValueError, AttributeError):
                continue  # not a report's JSON
        kind = KINDS.get(html.stem, "report")
        found.append(Report(html.relative_to(folder).as_posix(), title, kind, modified))
    found.sort(key=lambda r: (-r.modified, r.path))
    return found[:limit]


def files(folder: Path) -> set[str]:
    """Return every file the listed reports may serve, relative to `folder`: pages, Markdown, JSON and charts."""
    out = set()
    for report in latest(folder):
        page = folder / report.path
        stem = page.stem
        for suffix in (".html", ".md", ".json"):
            out.add(page.with_suffix(suffix).relative_to(folder).as_posix())
        charts = page.parent / "charts"
        if charts.is_dir() and not charts.is_symlink():
            for chart in charts.iterdir():
                if chart.name.startswith(stem + "-") and chart.suffix in (".png", ".svg"):
                    out.add(chart.relative_to(folder).as_posix())
    return out


def read(folder: Path, relative: str) -> tuple[bytes, str] | None:
    """Return a listed file's bytes and content type, or None for anything else (or a link out of `folder`)."""
    if relative not in files(folder):
        return None
    path = Path(os.path.realpath(folder / relative))  # Path.resolve raises on a loop of links
    if Path(os.path.realpath(folder)) not in path.parents:
        return None
    try:
        return path.read_bytes(), TYPES.get(path.suffix, "application/octet-stream")
    except OSError:
        return None


def stamp(folder: Path) -> str:
    """Return a token that changes when a report is written, so the page refreshes its list."""
    return ",".join(f"{r.path}@{r.modified:.3f}" for r in latest(folder))


def _pages(folder: Path) -> list[Path]:
    """Return every `*.html` with a `.json` of the same stem under `folder`, not following links, bounded depth."""
    if not folder.is_dir():
        return []
    out = []
    top = len(folder.parts)
    for here, dirs, names in os.walk(folder, followlinks=False):
        depth = len(Path(here).parts) - top
        dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.startswith(".") and depth < MAX_DEPTH)
        for name in sorted(names):
            if name.endswith(".html") and name[:-5] + ".json" in names:
                path = Path(here) / name
                if not path.is_symlink():
                    out.append(path)
    return out
