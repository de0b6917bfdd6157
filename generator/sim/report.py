"""A report as data (sections of prose and tables), written as HTML with charts and Markdown for people, JSON for machines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

BAR_CHARS = " ▏▎▍▌▋▊▉█"


@dataclass
class Table:
    """A table with a header row; cells are already formatted strings."""

    headers: Sequence[str]
    rows: Sequence[Sequence[Any]]
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
    provenance: dict[str, Any] | None = None  # what it was made from (see `provenance.collect`); set when written


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
    if doc.provenance:
        out += ["## Reproduce", "", *reproduce(doc.provenance), ""]
    return "\n".join(out).rstrip() + "\n"


def reproduce(provenance: dict[str, Any]) -> list[str]:
    """Return how to make this report again, in words: the command, the version and commit, the inputs' hash."""
    commit = provenance.get("git_commit")
    state = (
        f"git commit `{commit}`" + (" with local changes" if provenance.get("git_dirty") else "")
        if commit
        else "no git commit known"
    )
    lines = [
        f"`{' '.join(provenance.get('command', []))}` with cardpress {provenance.get('cardpress')} ({state}).",
    ]
    for game, info in provenance.get("inputs", {}).items():
        chain = " → ".join(info["chain"])
        lines.append(f"Inputs of {game} ({chain}): {len(info['files'])} files, sha256 `{info['sha256'][:16]}…`.")
    lines.append("Every file's hash, the bots and the seeds are in the JSON file, under `provenance`.")
    return lines


def to_json(doc: Document) -> dict[str, Any]:
    """Return the report's numbers as JSON-ready data."""
    out: dict[str, Any] = {
        "title": doc.title,
        "meta": doc.meta,
        "sections": {s.key: {"title": s.title, "data": s.data} for s in doc.sections},
    }
    if doc.provenance is not None:
        out["provenance"] = doc.provenance
    return out


def _cell(value: Any) -> str:
    text = f"{value:.2f}" if isinstance(value, float) else str(value)
    return text.replace("|", "\\|").replace("\n", " ")
