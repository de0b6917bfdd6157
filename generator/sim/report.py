"""A report as data (sections of prose and tables), written as HTML with charts and Markdown for people, JSON for machines."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BAR_CHARS = " ▏▎▍▌▋▊▉█"


@dataclass
class Table:
    """A table with a header row; cells are already formatted strings."""

    headers: Sequence[str]
    rows: list[Sequence[Any]]
    caption: str = ""


@dataclass
class Section:
    """One part of a report: prose, tables and the raw numbers behind them (for the JSON file)."""

    title: str
    key: str  # the section's name in the JSON file
    text: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    data: Any = None


@dataclass
class Document:
    """A whole report."""

    title: str
    meta: dict[str, Any]
    sections: list[Section]
    intro: list[str] = field(default_factory=list)


def bar(fraction: float, width: int = 20) -> str:
    """Return a text bar of `fraction` (0..1) of `width` cells, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (BAR_CHARS[part] if part else "")


def pct(x: float, digits: int = 1) -> str:
    """Return `12.3 %`."""
    return f"{100 * x:.{digits}f} %"


def interval(lo: float, hi: float, digits: int = 1) -> str:
    """Return `[10.2, 14.8] %`."""
    return f"[{100 * lo:.{digits}f}, {100 * hi:.{digits}f}] %"


def to_markdown(doc: Document, images: dict[str, list[tuple[str, str]]] | None = None) -> str:
    """Render the report as GitHub-flavoured Markdown; `images` maps a section key to (title, PNG path) pairs."""
    images = images or {}
    out = [f"# {doc.title}", ""]
    out += [*doc.intro, ""] if doc.intro else []
    if doc.meta:
        out.append("| Setting | Value |")
        out.append("|---|---|")
        out += [f"| {k} | {_cell(v)} |" for k, v in doc.meta.items()]
        out.append("")
    for section in doc.sections:
        out += [f"## {section.title}", ""]
        for para in section.text:
            out += [para, ""]
        out += [f"![{title}]({path})\n" for title, path in images.get(section.key, [])]
        for table in section.tables:
            if table.caption:
                out += [f"*{table.caption}*", ""]
            out.append("| " + " | ".join(map(str, table.headers)) + " |")
            out.append("|" + "|".join("---" for _ in table.headers) + "|")
            out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows]
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def to_json(doc: Document) -> dict[str, Any]:
    """Return the report's numbers as JSON-ready data."""
    return {
        "title": doc.title,
        "meta": doc.meta,
        "sections": {s.key: {"title": s.title, "data": s.data} for s in doc.sections},
    }


def write(
    doc: Document,
    folder: Path,
    stem: str = "report",
    charts: Callable[[dict[str, Any]], list[Any]] | None = None,
) -> list[Path]:
    """Write `<stem>.html`, `.md` and `.json`, and each chart as `charts/<stem>-<key>.png` and `.svg`.

    `charts` turns the report's JSON (exactly as written) into `charts.Chart`s (default: `charts.for_report`).
    Every file is rendered first, then all are moved into place together with Ctrl-C held back, so a
    report is either complete or untouched. Returns the HTML, Markdown and JSON paths.
    """
    from . import charts as chart_builders
    from . import html, plotting

    data = to_json(doc)
    text = json.dumps(data, indent=1, sort_keys=False) + "\n"
    built = (charts or chart_builders.for_report)(json.loads(text))  # charts see only what report.json holds
    files: dict[str, tuple[str, str]] = {}
    images: dict[str, list[tuple[str, str]]] = {}
    outputs: dict[Path, bytes] = {}
    rendered = []
    for chart in built:
        svg, png = plotting.render(chart)
        names = (f"charts/{stem}-{chart.key}.png", f"charts/{stem}-{chart.key}.svg")
        files[chart.key] = names
        images.setdefault(chart.section, []).append((chart.title, names[0]))
        outputs[folder / names[0]] = png
        outputs[folder / names[1]] = svg
        rendered.append((chart, svg))
    main = [folder / f"{stem}.html", folder / f"{stem}.md", folder / f"{stem}.json"]
    outputs[main[0]] = html.render(doc, rendered, files).encode()
    outputs[main[1]] = to_markdown(doc, images).encode()
    outputs[main[2]] = text.encode()
    stale = set((folder / "charts").glob(f"{stem}-*.png")) | set((folder / "charts").glob(f"{stem}-*.svg"))
    _write_all(outputs, stale - set(outputs))
    return main


def _write_all(outputs: dict[Path, bytes], stale: set[Path]) -> None:
    """Write every file beside its final name, then rename them all into place (Ctrl-C waits for the renames)."""
    temps: list[tuple[Path, Path]] = []
    try:
        for path, content in outputs.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            temps.append((Path(tmp), path))
            os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; a report is an ordinary file
            with os.fdopen(fd, "wb") as fh:
                fh.write(content)
        with _sigint_deferred():
            for tmp, path in temps:
                os.replace(tmp, path)
            for path in stale:
                path.unlink(missing_ok=True)
    finally:
        for tmp, _ in temps:
            tmp.unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold Ctrl-C back for the moment of renaming, then deliver it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[Any] = []
    previous = signal.signal(signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt


def write_atomic(path: Path, text: str) -> None:
    """Write text to a temporary file beside `path`, then rename it into place."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _cell(value: Any) -> str:
    text = f"{value:.2f}" if isinstance(value, float) else str(value)
    return text.replace("|", "\\|").replace("\n", " ")
