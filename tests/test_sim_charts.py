"""Report charts: every plotted number comes from the report.json beside it, and every file is byte-identical."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pf_common import ROOT

from generator import pipeline
from generator.sim import charts, plotting, publish
from generator.sim import report as writer
from generator.sim.charts import CURVE, HISTOGRAM, INTERVALS
from generator.sim.simulate import simulate


def _plugin(game: str):
    loaded = pipeline.load(ROOT, game)
    return loaded.ruleset.simulation(loaded)


@pytest.fixture(scope="module")
def pf_report(tmp_path_factory) -> Path:
    """A Pocket Foundry report with planner and random bots (some machines never built)."""
    plugin = _plugin("pocket-foundry")
    doc = simulate(plugin, 4, ["planner", "random", "planner", "random"], 3, seed=1, skill_games=0).document
    folder = tmp_path_factory.mktemp("pf")
    publish.write(doc, folder)
    return folder


@pytest.fixture(scope="module")
def me_report(tmp_path_factory) -> Path:
    """A Micro-Engine report with heuristic bots (they never keep some Cores)."""
    plugin = _plugin("micro-engine")
    doc = simulate(plugin, 4, ["heuristic"] * 4, 16, seed=1, skill_games=0).document
    folder = tmp_path_factory.mktemp("me")
    publish.write(doc, folder)
    return folder


def _json(folder: Path) -> dict:
    return json.loads((folder / "report.json").read_text(encoding="utf-8"))


def _at(data: dict, source: str):
    for part in source.split("."):
        data = data[part]
    return data


def _rounded(rows: list[list[float | None]]) -> list[list[float | None]]:
    """Round to 12 decimals: an error bar is drawn as value − error, which may differ from the low end in the last bit."""
    return [[None if v is None else round(v, 12) for v in row] for row in rows]


def expected(report: dict, key: str) -> list[list[float | None]]:
    """Return, straight from report.json, the numbers each chart must plot: per series, values (and intervals)."""
    return _rounded(_expected(report, key))


def _expected(report: dict, key: str) -> list[list[float | None]]:
    s = report["sections"]
    if key == "win-share-by-seat":
        rows = s["seats"]["data"]["seats"]
        return [[r["win_share"] for r in rows], [r["ci95"][0] for r in rows], [r["ci95"][1] for r in rows]]
    if key == "win-share-by-card":
        rows = s["machines"]["data"] if "machines" in s else s["cards"]["data"]["cards"]
        ci = [r["with_ci95"] or [None, None] for r in rows]
        return [[r["win_share_with"] for r in rows], [c[0] for c in ci], [c[1] for c in ci]]
    if key == "win-share-by-core":
        rows = s["cores"]["data"]["cores"]
        ci = [r["ci95"] or [None, None] for r in rows]
        return [[r["win_share"] for r in rows], [c[0] for c in ci], [c[1] for c in ci]]
    if key == "score-distribution":
        return [[b[2] for b in s["scores"]["data"]["histogram"]]]
    if key == "game-length":
        data = s["length"]["data"]  # turns when they vary, else decisions
        varying = [m for m in ("turns", "decisions") if m in data and len(data[m]["histogram"]) > 1]
        return [[b[2] for b in data[varying[0]]["histogram"]]]
    if key == "points-by-round":
        rows = s["tempo"]["data"]
        return [[r["mean"] for r in rows], [r["eventual_winner"] for r in rows]]
    raise AssertionError(f"no expectation for chart {key}")


def plotted(chart: charts.Chart) -> list[list[float | None]]:
    """Return the numbers the matplotlib artists of `chart` actually hold, in the shape of `expected`."""
    return _rounded(_plotted(chart))


def _plotted(chart: charts.Chart) -> list[list[float | None]]:
    fig = plotting.figure(chart)
    ax = fig.axes[0]
    n = len(chart.categories)
    out: list[list[float | None]] = []
    if chart.kind == INTERVALS:
        ticks = [t.get_text() for t in ax.get_yticklabels()]
        assert ticks == list(reversed(chart.categories))
        for container in ax.containers:
            line, _caps, (bars,) = container.lines
            values: list[float | None] = [None] * n
            lows: list[float | None] = [None] * n
            highs: list[float | None] = [None] * n
            for x, y, seg in zip(line.get_xdata(), line.get_ydata(), bars.get_segments()):
                i = n - 1 - round(y)
                values[i], lows[i], highs[i] = float(x), float(seg[0][0]), float(seg[1][0])
                assert seg[0][1] == seg[1][1] == y
            out += [values, lows, highs]
    elif chart.kind == HISTOGRAM:
        for container in ax.containers:
            out.append([float(p.get_height()) for p in container.patches])
    elif chart.kind == CURVE:
        out += [
            [float(v) for v in line.get_ydata()] for line in ax.lines if (line.get_gid() or "").startswith("series")
        ]
    return out


class Tables(HTMLParser):
    """Collects each chart's embedded data table (`table.chart-data`) as rows of cell text."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, tuple[str, list[list[str]]]] = {}
        self._key = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "chart-data" in (a.get("class") or ""):
            self._key = a["data-chart"]
            self.tables[self._key] = (a["data-source"], [])
        elif self._key and tag == "tr":
            self.tables[self._key][1].append([])
        elif self._key and tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "table":
            self._key = None
        elif self._key and tag in ("td", "th") and self._cell is not None:
            self.tables[self._key][1][-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _number(text: str) -> float | None:
    return None if text == "–" else float(text)


@pytest.mark.parametrize("which", ["pf_report", "me_report"])
def test_every_chart_plots_the_numbers_of_its_report_json(which, request):
    folder = request.getfixturevalue(which)
    report = _json(folder)
    built = charts.simulation(report)
    keys = [c.key for c in built]
    assert keys[:1] == ["win-share-by-seat"] and "win-share-by-card" in keys and "score-distribution" in keys
    for chart in built:
        want = expected(report, chart.key)
        got = plotted(chart)
        # Points not plotted (a card nobody used) are None in both.
        assert got == [[None if v is None else pytest.approx(v, abs=1e-12) for v in s] for s in want], chart.key
        # The chart's declared source in the JSON is where those numbers are.
        assert _at(report, chart.source) is not None


@pytest.mark.parametrize("which", ["pf_report", "me_report"])
def test_the_html_shows_each_chart_beside_a_table_of_the_same_json_numbers(which, request):
    folder = request.getfixturevalue(which)
    report = _json(folder)
    page = (folder / "report.html").read_text(encoding="utf-8")
    parser = Tables()
    parser.feed(page)
    built = {c.key: c for c in charts.simulation(report)}
    assert set(parser.tables) == set(built)
    for key, (source, rows) in parser.tables.items():
        assert source == built[key].source
        header, *body = rows
        want = expected(report, key)
        numeric = [j for j, h in enumerate(header) if h != "Note" and j > 0]
        columns = _rounded([[_number(row[j]) for row in body] for j in numeric])
        assert columns == want, key
        assert [row[0] for row in body] == built[key].categories
        assert f'id="chart-{key}"' in page
        assert (folder / "charts" / f"report-{key}.png").is_file()
        assert (folder / "charts" / f"report-{key}.svg").read_bytes().startswith(b"<?xml")
    # Self-contained: no scripts, nothing fetched from the network.
    assert "<script" not in page
    assert not re.search(r'(src|href)="(https?:)?//', page)
    md = (folder / "report.md").read_text(encoding="utf-8")
    assert "![Win share by seat](charts/report-win-share-by-seat.png)" in md


def test_every_machine_is_listed_and_the_unused_ones_say_why(pf_report):
    report = _json(pf_report)
    machines = report["sections"]["machines"]["data"]
    names = [m.name for m in pipeline.load(ROOT, "pocket-foundry").model.machines]
    assert [m["machine"] for m in machines] == names
    unused = [m for m in machines if m["win_share_with"] is None]
    assert unused, "this seed must leave a machine unbuilt, or the test shows nothing"
    for m in unused:
        assert m["note"] == "never built by planner and random bots: 0 of 12 player-games"
    chart = charts.cards_chart(report)
    assert chart.categories == names
    assert chart.notes == [m["note"] for m in machines]
    page = (pf_report / "report.html").read_text(encoding="utf-8")
    assert "never built by planner and random bots: 0 of 12 player-games" in page


def test_every_core_and_card_is_listed_and_the_unkept_ones_say_why(me_report):
    report = _json(me_report)
    model = pipeline.load(ROOT, "micro-engine").model
    cores = report["sections"]["cores"]["data"]["cores"]
    assert sorted(c["core"] for c in cores) == sorted(c.id for c in model.cores)
    assert sum(c["kept"] for c in cores) == 16 * 4
    never = [c for c in cores if c["kept"] == 0]
    assert never, "heuristic bots leave some Core unkept in 16 games"
    for c in never:
        assert re.fullmatch(r"never kept by heuristic bots: (offered \d+ times, kept )?0 of 64 player-games", c["note"])
    assert {c["note"] for c in cores if c["kept"]} == {""}
    cards = report["sections"]["cards"]["data"]["cards"]
    assert sorted(c["card"] for c in cards) == sorted(c.id for c in model.cards)
    for c in cards:
        assert (c["win_share_with"] is None) == bool(c["note"])
    md = (me_report / "report.md").read_text(encoding="utf-8")
    assert all(c.name in md for c in model.cores)


def test_reports_are_byte_identical_run_after_run(tmp_path):
    plugin = _plugin("pocket-foundry")
    for name in ("a", "b"):
        doc = simulate(plugin, 3, ["random"] * 3, 20, seed=5, skill_games=0).document
        publish.write(doc, tmp_path / name)
    files = sorted(str(p.relative_to(tmp_path / "a")) for p in (tmp_path / "a").rglob("*") if p.is_file())
    keys = ["points-by-round", "score-distribution", "win-share-by-card", "win-share-by-seat"]  # length is fixed
    assert files == sorted(
        ["report.html", "report.md", "report.json", *(f"charts/report-{k}.{x}" for k in keys for x in ("png", "svg"))]
    )
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f
    svg = (tmp_path / "a" / "charts" / "report-win-share-by-seat.svg").read_text()
    assert "<dc:date>" not in svg and "Matplotlib v" not in svg


def test_a_rewritten_report_drops_charts_it_no_longer_has(tmp_path):
    plugin = _plugin("pocket-foundry")
    stale = tmp_path / "charts" / "report-old-chart.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"x")
    keep = tmp_path / "charts" / "analysis-other.png"
    keep.write_bytes(b"x")
    publish.write(simulate(plugin, 2, ["random"] * 2, 4, seed=1, skill_games=0).document, tmp_path)
    assert not stale.exists() and keep.exists()


def test_a_comparison_plots_both_runs_from_their_json(pf_report, tmp_path):
    plugin = _plugin("pocket-foundry")
    other = simulate(plugin, 4, ["planner"] * 4, 8, seed=9, skill_games=0).document
    b = json.loads(json.dumps(writer.to_json(other)))
    a = _json(pf_report)
    built = {c.key: c for c in charts.comparison(a, b, ("edition", "base"))}
    assert list(built) == [
        "compare-win-share-by-seat",
        "compare-win-share-by-card",
        "compare-score-distribution",
    ]
    seats = plotted(built["compare-win-share-by-seat"])
    assert seats[:3] == expected(a, "win-share-by-seat") and seats[3:] == expected(b, "win-share-by-seat")
    scores = plotted(built["compare-score-distribution"])
    for run, got in zip((a, b), scores):
        bins = {
            f"{lo}" if lo == hi else f"{lo}–{hi}": c for lo, hi, c in run["sections"]["scores"]["data"]["histogram"]
        }
        total = sum(bins.values())
        assert got == pytest.approx([bins.get(k, 0) / total for k in built["compare-score-distribution"].categories])
    assert [s.name for s in built["compare-win-share-by-card"].series] == ["edition", "base"]
    # A comparison report that holds both runs in its JSON gets the same charts from the generic writer.
    doc = writer.Document(
        "compare", {}, [writer.Section("Runs", "runs", [], [], {"labels": ["edition", "base"], "a": a, "b": b})]
    )
    paths = publish.write(doc, tmp_path, stem="compare")
    page = paths[0].read_text()
    assert all(f'data-chart="{key}"' in page for key in built)
    assert (tmp_path / "charts" / "compare-win-share-by-seat.png").is_file()


def test_a_sweep_curve_plots_its_points_and_interval_band(tmp_path):
    curve = {
        "parameter": "Ticket Stamp points",
        "measure": "owner's win share",
        "target": 0.25,
        "target_label": "fair share",
        "points": [
            {"value": 1, "estimate": 0.18, "ci95": [0.15, 0.21]},
            {"value": 2, "estimate": 0.24, "ci95": [0.21, 0.27]},
            {"value": 3, "estimate": 0.31, "ci95": [0.28, 0.34]},
        ],
    }
    chart = charts.sweep(curve)
    assert chart.title == "Owner's win share by Ticket Stamp points"
    fig = plotting.figure(chart)
    ax = fig.axes[0]
    [line] = [x for x in ax.lines if x.get_gid() == "series-0"]
    assert list(line.get_xdata()) == [1, 2, 3] and list(line.get_ydata()) == [0.18, 0.24, 0.31]
    [band] = ax.collections
    ys = sorted({round(float(y), 9) for _, y in band.get_paths()[0].vertices})
    assert ys == [0.15, 0.21, 0.27, 0.28, 0.34]  # the band's edges are the intervals (0.21 twice)
    assert [x for x in ax.lines if x.get_linestyle() == "--"][0].get_ydata()[0] == 0.25
    doc = writer.Document("sweep", {}, [writer.Section("Sweep", "ticket", [], [], curve)])
    paths = publish.write(doc, tmp_path, stem="sweep")
    assert (tmp_path / "charts" / "sweep-ticket.svg").is_file()
    assert 'data-chart="sweep-ticket"' in paths[0].read_text()
