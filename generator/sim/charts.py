"""Which charts a report shows, and their numbers, read from the report's JSON (never from anything else).

Each builder takes JSON data exactly as it is written to report.json and returns `Chart`s: plain data
(categories, series with 95 % intervals, a reference line, a note per category). `plotting` draws them
with matplotlib; `html` puts each one beside a table of the same numbers. Three entry points:
`simulation(report)` for a simulation report, `comparison(a, b)` for two runs side by side, and
`sweep(curve)` for a measure along a swept value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

INTERVALS = "intervals"  # one row per category: a point per series with its 95 % interval
HISTOGRAM = "histogram"  # one bar per bin (grouped when there are several series)
CURVE = "curve"  # a line over numeric x values, with an interval band when known
HEATMAP = "heatmap"  # a grid of two swept values: one series per row (second value), one cell per category


@dataclass(frozen=True)
class Series:
    """One set of values across the categories (None: nothing to plot there)."""

    name: str
    values: list[float | None]
    low: list[float | None] | None = None
    high: list[float | None] | None = None


@dataclass(frozen=True)
class Chart:
    """A chart as data: what to draw, where its numbers come from in the JSON, and how to label it."""

    key: str  # file stem of its PNG and SVG, and its id in the HTML page
    title: str
    kind: str
    section: str  # the report section it belongs to
    source: str  # where its numbers are in the JSON, e.g. "sections.seats.data.seats"
    categories: list[str]  # category labels, bin labels, or x values for a curve
    series: list[Series]
    value_label: str
    category_label: str = ""
    percent: bool = False  # values are shares: show them as per cent
    reference: float | None = None
    reference_label: str = ""
    notes: list[str] = field(default_factory=list)  # one per category ("" for none), shown beside it
    x_values: list[float] = field(default_factory=list)  # for curves: the numeric x of each category
    caption: str = ""

    def table(self) -> tuple[list[str], list[list[Any]]]:
        """Return the chart's numbers as a table: the headers and one row per category (the data the HTML embeds)."""
        headers = [self.category_label or "Category"]
        for s in self.series:
            prefix = f"{s.name}: " if len(self.series) > 1 else ""
            headers.append(prefix + self.value_label)
            if s.low is not None:
                headers += [prefix + "95 % low", prefix + "95 % high"]
        if any(self.notes):
            headers.append("Note")
        rows = []
        for i, category in enumerate(self.categories):
            row: list[Any] = [category]
            for s in self.series:
                row.append(s.values[i])
                if s.low is not None and s.high is not None:
                    row += [s.low[i], s.high[i]]
            if any(self.notes):
                row.append(self.notes[i])
            rows.append(row)
        return headers, rows


def _data(report: dict[str, Any], key: str) -> Any:
    return report.get("sections", {}).get(key, {}).get("data")


def _players(report: dict[str, Any]) -> int | None:
    seats = _data(report, "seats")
    return len(seats["seats"]) if seats else None


def _ci(item: dict[str, Any], key: str = "ci95") -> tuple[float | None, float | None]:
    ci = item.get(key)
    return (ci[0], ci[1]) if ci else (None, None)


# ---------------------------------------------------------------- one simulation


def seats_chart(report: dict[str, Any]) -> Chart | None:
    """Return the win share of each seat with its 95 % interval, against the fair share."""
    data = _data(report, "seats")
    if not data:
        return None
    seats = data["seats"]
    return Chart(
        "win-share-by-seat",
        "Win share by seat",
        INTERVALS,
        "seats",
        "sections.seats.data.seats",
        [f"Seat {s['seat']} ({s['bot']})" for s in seats],
        [Series("win share", [s["win_share"] for s in seats], *map(list, zip(*(_ci(s) for s in seats))))],
        "Win share",
        "Seat",
        percent=True,
        reference=1 / len(seats),
        reference_label="fair share",
        caption=f"{data['games']:,} games; ties split 1/k. Bars: 95 % intervals.",
    )


def cards_chart(report: dict[str, Any]) -> Chart | None:
    """Return each card's win share for players who used it, with intervals; unused cards say why."""
    machines = _data(report, "machines")
    cards = _data(report, "cards")
    players = _players(report)
    if isinstance(machines, list) and machines and "win_share_with" in machines[0]:  # analyze's machines differ
        items, name, what, source = machines, "machine", "built it", "sections.machines.data"
        label = "Machine"
    elif cards and cards.get("cards") and "win_share_with" in cards["cards"][0]:
        items, name, what, source = cards["cards"], "name", "played it", "sections.cards.data.cards"
        label = "Card"
    else:
        return None
    return Chart(
        "win-share-by-card",
        f"Win share of players who {what}",
        INTERVALS,
        "machines" if items is machines else "cards",
        source,
        [item[name] for item in items],
        [
            Series(
                "win share",
                [item["win_share_with"] for item in items],
                [_ci(item, "with_ci95")[0] for item in items],
                [_ci(item, "with_ci95")[1] for item in items],
            )
        ],
        "Win share",
        label,
        percent=True,
        reference=1 / players if players else None,
        reference_label="fair share",
        notes=[item.get("note", "") for item in items],
        caption=f"Players who {what} at least once. Bars: 95 % intervals; winners use more cards, so this "
        "mixes cause and effect.",
    )


def cores_chart(report: dict[str, Any]) -> Chart | None:
    """Return each Core's win share when kept, with intervals; Cores never kept say why."""
    cores = _data(report, "cores")
    if not cores or "cores" not in cores:
        return None
    items = cores["cores"]
    players = _players(report)
    return Chart(
        "win-share-by-core",
        "Win share by Core kept",
        INTERVALS,
        "cores",
        "sections.cores.data.cores",
        [item["name"] for item in items],
        [
            Series(
                "win share",
                [item["win_share"] for item in items],
                [_ci(item)[0] for item in items],
                [_ci(item)[1] for item in items],
            )
        ],
        "Win share",
        "Core",
        percent=True,
        reference=1 / players if players else None,
        reference_label="fair share",
        notes=[item.get("note", "") for item in items],
        caption="Bars: 95 % intervals.",
    )


def scores_chart(report: dict[str, Any]) -> Chart | None:
    """Return the distribution of every player's final points."""
    data = _data(report, "scores")
    if not data or not data.get("histogram"):
        return None
    bins = data["histogram"]
    return Chart(
        "score-distribution",
        "Final points, every player",
        HISTOGRAM,
        "scores",
        "sections.scores.data.histogram",
        [_bin(lo, hi) for lo, hi, _ in bins],
        [Series("players", [count for _, _, count in bins])],
        "Players",
        "Final points",
    )


def length_chart(report: dict[str, Any]) -> Chart | None:
    """Return the distribution of game length, in turns when the game counts them, else in decisions."""
    data = _data(report, "length")
    if not data:
        return None
    varying = [m for m in ("turns", "decisions") if m in data and len(data[m]["histogram"]) > 1]
    if not varying:
        return None  # every game had the same length: the section says so, a single bar would not
    measure = varying[0]
    bins = data[measure]["histogram"]
    return Chart(
        "game-length",
        f"Game length ({measure} per game)",
        HISTOGRAM,
        "length",
        f"sections.length.data.{measure}.histogram",
        [_bin(lo, hi) for lo, hi, _ in bins],
        [Series("games", [count for _, _, count in bins])],
        "Games",
        measure.capitalize() + " per game",
    )


def tempo_chart(report: dict[str, Any]) -> Chart | None:
    """Return mean points after each round, for every player and for the eventual winner."""
    data = _data(report, "tempo")
    if not data:
        return None
    rounds = [row["round"] for row in data]
    name = report["sections"]["tempo"]["title"].split()[-1]  # "Points per lap": what the game calls a round
    return Chart(
        "points-by-round",
        f"Mean points after each {name}",
        CURVE,
        "tempo",
        "sections.tempo.data",
        [str(r) for r in rounds],
        [
            Series("every player", [row["mean"] for row in data]),
            Series("eventual winner", [row["eventual_winner"] for row in data]),
        ],
        "Mean points",
        name.capitalize(),
        x_values=[float(r) for r in rounds],
    )


def player_counts_chart(report: dict[str, Any]) -> Chart | None:
    """Return the first player's advantage over a fair share at every player count, with its 95 % interval."""
    data = _data(report, "player_counts")
    if not data or not data.get("counts"):
        return None
    counts = data["counts"]
    return Chart(
        "first-player-by-count",
        "First player's advantage at every player count",
        INTERVALS,
        "player_counts",
        "sections.player_counts.data.counts",
        [f"{c['players']} players" for c in counts],
        [
            Series(
                "advantage",
                [c["advantage"] for c in counts],
                [c["advantage_ci95"][0] for c in counts],
                [c["advantage_ci95"][1] for c in counts],
            )
        ],
        "Win share above fair",
        "Players",
        percent=True,
        reference=0.0,
        reference_label="fair (first player's share = 1/players)",
        caption="The first player's win share minus 1/players. Bars: 95 % intervals.",
    )


SIMULATION = (seats_chart, cards_chart, cores_chart, scores_chart, length_chart, tempo_chart, player_counts_chart)


def simulation(report: dict[str, Any]) -> list[Chart]:
    """Return every chart a simulation report's JSON supports, in reading order."""
    return [chart for build in SIMULATION if (chart := build(report)) is not None]


# ---------------------------------------------------------------- two runs side by side


def comparison(a: dict[str, Any], b: dict[str, Any], labels: Sequence[str] = ("A", "B")) -> list[Chart]:
    """Return two simulation reports' charts with both runs as series (seats, cards, Cores, scores, length)."""
    out = []
    for build in (seats_chart, cards_chart, cores_chart):
        ca, cb = build(a), build(b)
        if ca is None or cb is None:
            continue
        if build is seats_chart:  # seats pair up by number, whichever bots sat in them
            categories = [f"Seat {i + 1}" for i in range(max(len(ca.categories), len(cb.categories)))]
            ca, cb = (replace(c, categories=categories[: len(c.categories)]) for c in (ca, cb))
        else:
            categories = list(dict.fromkeys([*ca.categories, *cb.categories]))
        series = [_realign(ca, categories, labels[0]), _realign(cb, categories, labels[1])]
        out.append(
            Chart(
                f"compare-{ca.key}",
                ca.title + f": {labels[0]} and {labels[1]}",
                INTERVALS,
                ca.section,
                ca.source,
                categories,
                series,
                ca.value_label,
                ca.category_label,
                percent=True,
                reference=ca.reference,
                reference_label=ca.reference_label,
                caption="Bars: 95 % intervals; intervals that do not overlap are a difference worth a playtest.",
            )
        )
    for build in (scores_chart, length_chart):
        ca, cb = build(a), build(b)
        if ca is None or cb is None:
            continue
        categories = sorted(set(ca.categories) | set(cb.categories), key=_bin_start)
        out.append(
            Chart(
                f"compare-{ca.key}",
                ca.title + f": {labels[0]} and {labels[1]}",
                HISTOGRAM,
                ca.section,
                ca.source,
                categories,
                [_shares(ca, categories, labels[0]), _shares(cb, categories, labels[1])],
                "Share",
                ca.category_label,
                percent=True,
                caption="Shares of each run's total, so runs of different sizes compare.",
            )
        )
    return out


def _realign(chart: Chart, categories: list[str], name: str) -> Series:
    s = chart.series[0]
    at = {c: i for i, c in enumerate(chart.categories)}

    def pick(values: list[float | None] | None) -> list[float | None]:
        return [values[at[c]] if values is not None and c in at else None for c in categories]

    return Series(name, pick(s.values), pick(s.low), pick(s.high))


def _shares(chart: Chart, categories: list[str], name: str) -> Series:
    counts = dict(zip(chart.categories, chart.series[0].values))
    total = sum(v or 0 for v in counts.values()) or 1
    return Series(name, [(counts.get(c) or 0) / total for c in categories])


# ---------------------------------------------------------------- a sweep


def sweep(curve: dict[str, Any], key: str = "sweep", section: str = "sweep", source: str = "") -> Chart:
    """Return a swept measure as a curve with its interval band (one curve per group when two values are swept).

    `curve` is JSON data: {"parameter": "Assembler points", "measure": "owner's win share",
    "percent": true, "target": 0.25, "points": [{"value": 3, "estimate": 0.31, "ci95": [0.28, 0.34]}, ...]};
    `target` (optional) is drawn as the reference line, e.g. a fair share. A point may carry a `group` (the
    second swept value, named by `group_parameter`): each group is its own curve over the same x values.
    A point with no estimate (an invalid one) leaves a gap."""
    points = curve["points"]
    percent = bool(curve.get("percent", True))
    xs = list(dict.fromkeys(float(p["value"]) for p in points))
    labels = list(dict.fromkeys(f"{p['value']:g}" for p in points))
    groups = list(dict.fromkeys(p.get("group") for p in points))
    series = []
    for group in groups:
        at = {float(p["value"]): p for p in points if p.get("group") == group}
        mine = [at.get(x, {}) for x in xs]
        name = curve["measure"] if group is None else f"{curve.get('group_parameter', 'group')} = {group:g}"
        series.append(
            Series(
                name,
                [p.get("estimate") for p in mine],
                [p["ci95"][0] if p.get("ci95") else None for p in mine],
                [p["ci95"][1] if p.get("ci95") else None for p in mine],
            )
        )
    return Chart(
        key,
        f"{curve['measure'][:1].upper() + curve['measure'][1:]} by {curve['parameter']}",
        CURVE,
        section,
        source or f"sections.{section}.data",
        labels,
        series,
        curve["measure"][:1].upper() + curve["measure"][1:],
        curve["parameter"][:1].upper() + curve["parameter"][1:],
        percent=percent,
        reference=curve.get("target"),
        reference_label=curve.get("target_label", "target"),
        x_values=xs,
        caption="Band: 95 % intervals; every point played with the same seeds.",
    )


def heatmap(data: dict[str, Any], key: str = "heatmap", section: str = "heatmap") -> Chart:
    """Return a measure over two swept values as a heatmap: the first value across, the second down.

    `data` is JSON data: {"heatmap": true, "measure": …, "parameter": …, "group_parameter": …, "percent": …,
    "target": …, "x": [values], "y": [values], "values": [[one per x] per y]} (None: a refused point)."""
    label = data["measure"][:1].upper() + data["measure"][1:]
    return Chart(
        key,
        f"{label} by {data['parameter']} and {data['group_parameter']}",
        HEATMAP,
        section,
        f"sections.{section}.data.values",
        [f"{x:g}" for x in data["x"]],
        [Series(f"{data['group_parameter']} = {y:g}", list(row)) for y, row in zip(data["y"], data["values"])],
        label,
        data["parameter"][:1].upper() + data["parameter"][1:],
        percent=bool(data.get("percent")),
        reference=data.get("target"),
        reference_label="target (white)",
        x_values=[float(x) for x in data["x"]],
        caption="Each cell is a point, every seed block pooled; colour runs from below the target (blue) to above "
        "it (orange), white at the target.",
    )


def for_report(report: dict[str, Any]) -> list[Chart]:
    """Return the charts of any report, found by the shape of its sections' data.

    The simulation sections get their charts; a section holding a sweep curve (see `sweep`) gets its
    curve; a section holding two runs, {"labels": [A, B], "a": report A's JSON, "b": report B's JSON},
    gets the comparison charts, so a comparison's numbers are in its own JSON file too."""
    out = simulation(report)
    for key, section in report.get("sections", {}).items():
        data = section.get("data")
        if not isinstance(data, dict):
            continue
        if {"points", "parameter", "measure"} <= data.keys():
            out.append(sweep(data, key=f"sweep-{key}", section=key))
        elif data.get("heatmap") and {"x", "y", "values"} <= data.keys():
            out.append(heatmap(data, key=f"sweep-{key}", section=key))
        elif {"labels", "a", "b"} <= data.keys():
            for chart in comparison(data["a"], data["b"], data["labels"]):
                out.append(replace(chart, section=key, source=f"sections.{key}.data.{{a,b}}." + chart.source))
    return out


def _bin(lo: int, hi: int) -> str:
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def _bin_start(label: str) -> float:
    return float(label.split("–")[0])
