"""Draw `charts.Chart`s with matplotlib (Agg, no pyplot), byte-identical SVG and PNG on every run.

Determinism: the project's own fonts (Lato, else matplotlib's bundled DejaVu Sans) drawn as paths, a
fixed `svg.hashsalt`, and no dates or version strings in the files' metadata.
"""

from __future__ import annotations

import io
from functools import cache
from typing import TYPE_CHECKING, Any

from .. import resources
from .charts import CURVE, HISTOGRAM, INTERVALS, Chart

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

FONTS = resources.shipped() / "fonts"
INK = "#1f2933"
MUTED = "#6b7785"
GRID = "#e4e7eb"
PALETTE = ("#1f6f8b", "#d9822b", "#3f8f4f", "#8e5ea2")  # colour-blind-safe pairs; series also differ in marker
MARKERS = ("o", "s", "D", "^")
WIDTH_IN = 7.2
DPI = 150


@cache
def _font_family() -> str:
    """Register Lato from the project's fonts/ with matplotlib (once); return the family to use."""
    from matplotlib import font_manager

    regular, bold = FONTS / "Lato-Regular.ttf", FONTS / "Lato-Bold.ttf"
    if regular.is_file() and bold.is_file():
        font_manager.fontManager.addfont(str(regular))
        font_manager.fontManager.addfont(str(bold))
        return "Lato"
    return "DejaVu Sans"


def _rc() -> dict[RcKeyType, Any]:
    return {
        "font.family": _font_family(),
        "font.size": 9.5,
        "svg.fonttype": "path",
        "svg.hashsalt": "cardpress",
        "axes.edgecolor": MUTED,
        "axes.labelcolor": INK,
        "axes.titleweight": "bold",
        "axes.titlesize": 11,
        "axes.titlelocation": "left",
        "xtick.color": MUTED,
        "ytick.color": MUTED,
        "text.color": INK,
        "path.simplify": False,
    }


def figure(chart: Chart) -> Any:
    """Return a matplotlib Figure of `chart` (its artists hold exactly the chart's numbers)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    with rc_context(_rc()):
        if chart.kind == INTERVALS:
            height = 1.0 + 0.32 * len(chart.categories) * max(1, len(chart.series) * 0.75)
        else:
            height = 3.2
        fig = Figure(figsize=(WIDTH_IN, max(2.2, height)), dpi=DPI, layout="constrained")
        ax = fig.add_subplot()
        {INTERVALS: _intervals, HISTOGRAM: _histogram, CURVE: _curve}[chart.kind](ax, chart)
        ax.set_title(chart.title, color=INK, pad=10)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        handles, labels = ax.get_legend_handles_labels()
        if handles:  # below the plot, so it never hides a point
            fig.legend(handles, labels, loc="outside lower center", ncol=len(handles), frameon=False, fontsize=8.5)
        if chart.percent:
            from matplotlib.ticker import PercentFormatter

            (ax.xaxis if chart.kind == INTERVALS else ax.yaxis).set_major_formatter(PercentFormatter(1.0, decimals=0))
    return fig


def _intervals(ax: Any, chart: Chart) -> None:
    """Categories top to bottom; one point and error bar per series; notes where nothing was measured."""
    n = len(chart.categories)
    k = len(chart.series)
    step = 0.7 / k if k > 1 else 0.0
    for j, s in enumerate(chart.series):
        ys: list[float] = []
        xs: list[float] = []
        errs: list[list[float]] = [[], []]
        for i, value in enumerate(s.values):
            if value is None:
                continue
            ys.append(n - 1 - i + (k - 1) * step / 2 - j * step)
            xs.append(value)
            low = s.low[i] if s.low is not None else None
            high = s.high[i] if s.high is not None else None
            lo = low if low is not None else value
            hi = high if high is not None else value
            errs[0].append(value - lo)
            errs[1].append(hi - value)
        ax.errorbar(
            xs,
            ys,
            xerr=errs if s.low is not None else None,
            fmt=MARKERS[j % len(MARKERS)],
            color=PALETTE[j % len(PALETTE)],
            ecolor=PALETTE[j % len(PALETTE)],
            elinewidth=1.6,
            capsize=3,
            markersize=5,
            label=s.name if k > 1 else None,
            gid=f"series-{j}",
        )
    if chart.reference is not None:
        ax.axvline(chart.reference, color=MUTED, linestyle="--", linewidth=1, label=chart.reference_label)
    ax.set_yticks(range(n), list(reversed(chart.categories)))
    ax.set_ylim(-0.6, n - 0.4)
    ax.set_xlabel(chart.value_label)
    ax.grid(axis="x", color=GRID, linewidth=0.8)
    ax.set_axisbelow(True)
    known = [v for s in chart.series for v in (s.high or s.values) if v is not None]
    right = max([*known, chart.reference or 0, 0.05])
    right = min(1.0, right * 1.08) if chart.percent else right * 1.08
    ax.set_xlim(-0.02 * right, right * 1.02)  # a little room, so points at 0 % or 100 % show whole
    for i, note in enumerate(chart.notes):
        if note:
            ax.annotate(
                note,
                (0, n - 1 - i),
                xytext=(4, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
                color=MUTED,
                style="italic",
                bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none"},
            )


def _histogram(ax: Any, chart: Chart) -> None:
    """One bar per bin; several series side by side."""
    k = len(chart.series)
    width = 0.8 / k
    for j, s in enumerate(chart.series):
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(chart.categories))]
        ax.bar(
            xs,
            [v or 0 for v in s.values],
            width=width * 0.92,
            color=PALETTE[j % len(PALETTE)],
            label=s.name if k > 1 else None,
            gid=f"series-{j}",
        )
    labels = chart.categories
    stride = max(1, -(-len(labels) // 16))  # at most 16 tick labels, so they never overlap
    ax.set_xticks(range(0, len(labels), stride), labels[::stride])
    ax.set_xlabel(chart.category_label)
    ax.set_ylabel(chart.value_label)
    ax.grid(axis="y", color=GRID, linewidth=0.8)
    ax.set_axisbelow(True)


def _curve(ax: Any, chart: Chart) -> None:
    """A line per series over numeric x, with its interval band."""
    xs = chart.x_values
    for j, s in enumerate(chart.series):
        colour = PALETTE[j % len(PALETTE)]
        points = [(x, v) for x, v in zip(xs, s.values) if v is not None]
        ax.plot(
            [x for x, _ in points],
            [v for _, v in points],
            marker=MARKERS[j % len(MARKERS)],
            color=colour,
            markersize=4,
            linewidth=1.8,
            label=s.name,
            gid=f"series-{j}",
        )
        if s.low is not None and s.high is not None:
            band = [(x, lo, hi) for x, lo, hi in zip(xs, s.low, s.high) if lo is not None and hi is not None]
            ax.fill_between(
                [b[0] for b in band], [b[1] for b in band], [b[2] for b in band], color=colour, alpha=0.18, linewidth=0
            )
    if chart.reference is not None:
        ax.axhline(chart.reference, color=MUTED, linestyle="--", linewidth=1, label=chart.reference_label)
    ax.set_xlabel(chart.category_label)
    ax.set_ylabel(chart.value_label)
    ax.grid(color=GRID, linewidth=0.8)
    ax.set_axisbelow(True)
    if len(xs) <= 16:
        ax.set_xticks(xs, chart.categories)


def render(chart: Chart) -> tuple[bytes, bytes]:
    """Return the chart as SVG and PNG bytes, identical on every run with the same matplotlib."""
    from matplotlib import rc_context

    fig = figure(chart)
    with rc_context(_rc()):
        svg, png = io.BytesIO(), io.BytesIO()
        fig.savefig(svg, format="svg", metadata={"Date": None, "Creator": None})
        fig.savefig(png, format="png", metadata={"Software": None}, facecolor="white")
    return svg.getvalue(), png.getvalue()
