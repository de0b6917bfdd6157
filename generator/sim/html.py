"""A report as one self-contained HTML page: prose, tables, and each chart (an SVG data URI) beside its numbers.

No scripts, no fonts or styles from the network: the page opens from disk, offline, in any browser.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from typing import Any

from .charts import Chart
from .report import BAR_CHARS, Document, reproduce

BAR_WIDTH = 20  # `report.bar`'s default width in cells
BAR_SET = set(BAR_CHARS.strip())

CSS = """
:root { --ink: #1f2933; --muted: #616e7c; --line: #e4e7eb; --accent: #1f6f8b; --soft: #f5f7fa; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.55 Lato, "Segoe UI", "Helvetica Neue", Arial, sans-serif; }
main { max-width: 60rem; margin: 0 auto; padding: 2.5rem 1.5rem 4rem; }
header { border-bottom: 3px solid var(--accent); padding-bottom: 1rem; margin-bottom: 1.5rem; }
h1 { font-size: 1.9rem; margin: 0 0 .4rem; letter-spacing: -.01em; }
h2 { font-size: 1.3rem; margin: 2.6rem 0 .6rem; padding-top: .6rem; border-top: 1px solid var(--line); }
p { margin: .5rem 0 .8rem; max-width: 48rem; }
.intro { color: var(--muted); }
nav { font-size: .9rem; margin: 1rem 0 0; color: var(--muted); }
nav a { color: var(--accent); text-decoration: none; margin-right: .9rem; white-space: nowrap; }
table { border-collapse: collapse; margin: .6rem 0 1.2rem; font-size: .88rem; font-variant-numeric: tabular-nums; }
th, td { padding: .3rem .7rem; border-bottom: 1px solid var(--line); text-align: right; vertical-align: top; }
th { background: var(--soft); font-weight: 700; border-bottom: 2px solid #cbd2d9; }
th:first-child, td:first-child { text-align: left; }
td.text { text-align: left; }
caption { caption-side: top; text-align: left; font-style: italic; color: var(--muted); padding: .2rem 0 .4rem; }
table.meta th { text-align: left; width: 14rem; }
table.meta td { text-align: left; }
.scroll { overflow-x: auto; }
figure.chart { margin: 1.2rem 0 1.6rem; padding: 1rem 1rem .6rem; border: 1px solid var(--line); border-radius: 6px; }
figure.chart img { display: block; width: 100%; height: auto; }
figcaption { font-size: .85rem; color: var(--muted); margin-top: .4rem; }
figcaption a { color: var(--accent); }
details { margin-top: .4rem; font-size: .85rem; }
summary { cursor: pointer; color: var(--accent); }
td.bar { width: 9rem; min-width: 6rem; padding-left: .4rem; }
td.bar span { display: block; height: .7rem; background: var(--accent); border-radius: 2px; opacity: .75; }
code { background: var(--soft); padding: 0 .25rem; border-radius: 3px; font-size: .9em; }
footer { margin-top: 3rem; font-size: .8rem; color: var(--muted); }
@media print { figure.chart { break-inside: avoid; } details { display: none; } }
"""


def render(doc: Document, charts: Sequence[tuple[Chart, bytes]], files: dict[str, tuple[str, str]]) -> str:
    """Return the page: `charts` are (chart, SVG bytes); `files` maps a chart's key to its PNG and SVG file names."""
    by_section: dict[str, list[tuple[Chart, bytes]]] = {}
    for chart, svg in charts:
        by_section.setdefault(chart.section, []).append((chart, svg))
    keys = {s.key for s in doc.sections}
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(doc.title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body><main>",
        "<header>",
        f"<h1>{_esc(doc.title)}</h1>",
        *[f'<p class="intro">{_inline(p)}</p>' for p in doc.intro],
        "<nav>" + "\n".join(f'<a href="#{_esc(s.key)}">{_esc(s.title)}</a>' for s in doc.sections) + "</nav>",
        "</header>",
    ]
    if doc.meta:
        out.append('<table class="meta">')
        out += [f"<tr><th>{_esc(k)}</th><td>{_esc(_fmt(v))}</td></tr>" for k, v in doc.meta.items()]
        out.append("</table>")
    for section in doc.sections:
        out.append(f'<section id="{_esc(section.key)}">')
        out.append(f"<h2>{_esc(section.title)}</h2>")
        out += [f"<p>{_inline(p)}</p>" for p in section.text]
        out += [_figure(chart, svg, files.get(chart.key)) for chart, svg in by_section.get(section.key, [])]
        for table in section.tables:
            out.append('<div class="scroll"><table>')
            if table.caption:
                out.append(f"<caption>{_inline(table.caption)}</caption>")
            out.append("<tr>" + "".join(f"<th>{_esc(h)}</th>" for h in table.headers) + "</tr>")
            for row in table.rows:
                out.append("<tr>" + "".join(_td(c) for c in row) + "</tr>")
            out.append("</table></div>")
        out.append("</section>")
    for key, items in by_section.items():
        if key not in keys:
            out += [_figure(chart, svg, files.get(chart.key)) for chart, svg in items]
    if doc.provenance:
        out.append('<section id="reproduce">')
        out.append("<h2>Reproduce</h2>")
        out += [f"<p>{_inline(line)}</p>" for line in reproduce(doc.provenance)]
        out.append("</section>")
    out += [
        "<footer>Written by cardpress. Charts drawn with matplotlib; every number is in the JSON file beside this page.</footer>"
    ]
    out += ["</main></body>", "</html>"]
    return "\n".join(out) + "\n"


def _figure(chart: Chart, svg: bytes, files: tuple[str, str] | None) -> str:
    """Return a chart as an image (an SVG data URI) with its caption and the table of its numbers."""
    uri = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
    headers, rows = chart.table()
    table = [
        f'<table class="chart-data" data-chart="{_esc(chart.key)}" data-source="{_esc(chart.source)}">',
        "<tr>" + "".join(f"<th>{_esc(h)}</th>" for h in headers) + "</tr>",
        *["<tr>" + "".join(_td(c, raw=True) for c in row) + "</tr>" for row in rows],
        "</table>",
    ]
    links = f' <a href="{_esc(files[0])}">PNG</a> · <a href="{_esc(files[1])}">SVG</a>' if files else ""
    return "\n".join(
        [
            f'<figure class="chart" id="chart-{_esc(chart.key)}">',
            f'<img src="{uri}" alt="{_esc(chart.title)}">',
            f"<figcaption>{_esc(chart.caption)}{links}</figcaption>",
            "<details><summary>Numbers behind this chart</summary>",
            '<div class="scroll">',
            *table,
            "</div></details>",
            "</figure>",
        ]
    )


def _td(value: Any, raw: bool = False) -> str:
    if isinstance(value, str) and value and set(value) <= BAR_SET:
        # A Markdown text bar becomes a drawn one of the same length (bars are BAR_WIDTH cells wide).
        eighths = sum(8 if c == "█" else BAR_CHARS.index(c) for c in value)
        width = 100 * eighths / (8 * BAR_WIDTH)
        return f'<td class="bar"><span style="width:{width:.1f}%"></span></td>'
    text = (repr(value) if raw and isinstance(value, float) else _fmt(value)) if value is not None else "–"
    cls = "" if isinstance(value, (int, float)) or _numeric(text) else ' class="text"'
    return f"<td{cls}>{_inline(text)}</td>"


def _numeric(text: str) -> bool:
    return bool(re.fullmatch(r"[-+−]?[\d.,]+( ?%)?|–", text))


def _fmt(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _inline(text: str) -> str:
    """Escape text, then turn the Markdown the reports use (`code`, **bold**, *italic*) into HTML."""
    out = _esc(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"<em>\1</em>", out)
