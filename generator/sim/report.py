"""A report as data (sections of prose and tables), written as Markdown for people and JSON for machines."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
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


def to_markdown(doc: Document) -> str:
    """Render the report as GitHub-flavoured Markdown."""
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


def write(doc: Document, folder: Path, stem: str = "report") -> list[Path]:
    """Write `<stem>.md` and `<stem>.json` into `folder`, each atomically (no half-written report)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{stem}.md", folder / f"{stem}.json"]
    texts = [to_markdown(doc), json.dumps(to_json(doc), indent=1, sort_keys=False) + "\n"]
    for path, text in zip(paths, texts):
        write_atomic(path, text)
    return paths


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
