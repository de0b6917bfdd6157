"""Write a report's files, HTML with charts, Markdown and JSON, all together or not at all."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..project.output import write_all
from . import provenance
from .report import Document, to_json, to_markdown


def write(
    doc: Document,
    folder: Path,
    stem: str = "report",
    charts: Callable[[dict[str, Any]], list[Any]] | None = None,
) -> list[Path]:
    """Write `<stem>.html`, `.md` and `.json`, and each chart as `charts/<stem>-<key>.png` and `.svg`
    (`charts/<key>.png` when the key already starts with the stem: a comparison's `compare-…` charts).

    `charts` turns the report's JSON (exactly as written) into `charts.Chart`s (default: `charts.for_report`).
    Every file is rendered first, then all are moved into place together with Ctrl-C held back, so a
    report is either complete or untouched. Returns the HTML, Markdown and JSON paths.
    """
    from . import charts as chart_builders
    from . import html, plotting  # matplotlib only when a report is written

    if doc.provenance is None:  # every report says what made it, even one written from the Python API
        doc.provenance = provenance.collect()
    data = to_json(doc)
    text = json.dumps(data, indent=1, sort_keys=False) + "\n"
    built = (charts or chart_builders.for_report)(json.loads(text))  # charts see only what report.json holds
    files: dict[str, tuple[str, str]] = {}
    images: dict[str, list[tuple[str, str]]] = {}
    outputs: dict[Path, bytes] = {}
    rendered = []
    for chart in built:
        svg, png = plotting.render(chart)
        name = chart.key if chart.key.startswith(f"{stem}-") else f"{stem}-{chart.key}"
        names = (f"charts/{name}.png", f"charts/{name}.svg")
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
    write_all(outputs, remove=stale - set(outputs), root=folder)  # all or nothing; Ctrl-C waits for the renames
    return main
