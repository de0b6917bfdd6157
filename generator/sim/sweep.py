"""A balance sweep: one or two card or rule values varied over a range, every point simulated with the same seeds.

Each point is the game loaded afresh through the Pipeline with the point's values set in its card files
(`generator.source.edits`), so the game's own schema and rules check it: a point they reject is reported, located,
and skipped. Every valid point plays the same seeded games (the main line-up of `simulate`), so differences
between points come from the values, not from luck in the deal. The measures are read from the games'
records; the report says how each moves, with 95 % intervals, and which point brings the chosen measure
closest to its target (a fair share, 1/players, for win shares).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..contract import LoadedGame
from ..diagnostics import Diagnostic
from ..source import edits as edit_tools
from . import stats
from .plugin import Plugin
from .report import Document, Section, Table, interval, pct
from .runner import Match, MatchResult, run_matches
from .tasks import Executor, Interrupted
from .vary import Axis, Number
from .vary import edits as point_edits
from .vary import points as grid

GENERAL = {
    "first-seat": "the first player's win share",
    "ties": "the share of games with a shared win",
    "score": "mean final points of every player",
    "winner-score": "mean final points of the winner",
    "length": "player decisions per game",
}
PER_CARD = {
    "owner": "win share of the players who used the card (built, kept, played or claimed it)",
    "used": "share of player-games in which the card was used",
}
PER_SEAT = "seat-N: the win share of seat N"


@dataclass(frozen=True)
class Measure:
    """A number read from a point's games, with its 95 % interval."""

    name: str  # as given to --measure: owner, owner:boiler-room, seat-2, score…
    label: str  # for people: "Ticket Stamp owner's win share"
    kind: str  # owner, used, first-seat, seat, ties, score, winner-score, length
    percent: bool
    fair: bool  # a win share: its target is 1/players
    card: str | None = None
    seat: int | None = None


@dataclass
class Point:
    """One combination of swept values: valid and measured, or rejected by the game's checks."""

    values: tuple[Number, ...]
    problems: list[Diagnostic] = field(default_factory=list)  # why the game refused it (schema, load)
    notes: list[Diagnostic] = field(default_factory=list)  # what its rules check said, when that does not stop it
    measures: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> {estimate, ci95, n}

    @property
    def valid(self) -> bool:
        """Return True when the game accepted the point's values."""
        return not self.problems


@dataclass
class Sweep:
    """Every point of a sweep (those finished, if it was interrupted) and the report made of them."""

    axes: list[Axis]
    points: list[Point]
    total: int  # points in the grid
    document: Document
    interrupted: Interrupted | None = None


def measures_for(axes: Sequence[Axis], plugin: Plugin, players: int) -> dict[str, Measure]:
    """Return the measures a sweep of `axes` reports: the general ones, and owner/used for each swept card."""
    out = {
        name: Measure(name, about, name, name in ("first-seat", "ties"), name == "first-seat")
        for name, about in GENERAL.items()
    }
    cards = list(dict.fromkeys(a.card for a in axes if a.card is not None and plugin.follows(a.card)))
    for i, card in enumerate(cards):
        label = next(a.label.rsplit(" ", 1)[0] for a in axes if a.card == card)
        for kind in PER_CARD:
            name = kind if i == 0 else f"{kind}:{card}"
            what = f"{label} owner's win share" if kind == "owner" else f"share of players using {label}"
            out[name] = Measure(name, what, kind, True, kind == "owner", card=card)
    for seat in range(1, players + 1):
        out[f"seat-{seat}"] = Measure(f"seat-{seat}", f"seat {seat}'s win share", "seat", True, True, seat=seat)
    return out


def resolve(name: str, measures: dict[str, Measure]) -> str | None:
    """Return the canonical name of a --measure (`owner:<id>` of the first swept card is `owner`), or None."""
    if name in measures:
        return name
    kind, _, card = name.partition(":")
    return next((n for n, m in measures.items() if m.kind == kind and m.card == card and card), None)


def measure(m: Measure, result: MatchResult, plugin: Plugin) -> dict[str, Any]:
    """Return {estimate, ci95, n} of one measure over a point's games (estimate None when nothing to measure)."""
    records = result.records
    n = result.match.players
    if m.kind in ("owner", "seat", "first-seat", "score", "winner-score", "length"):
        if m.kind == "owner":
            values = [r["returns"][s] for r in records for s in plugin.holders(r, m.card or "")]
        elif m.kind == "seat":
            values = [r["returns"][(m.seat or 1) - 1] for r in records]
        elif m.kind == "first-seat":
            values = [r["returns"][r["extra"].get("first", 0)] for r in records]
        elif m.kind == "score":
            values = [s for r in records for s in r["scores"]]
        elif m.kind == "winner-score":
            values = [max(r["scores"]) for r in records]
        else:
            values = [r.get("decisions", 0) for r in records]
        if not values:
            return {"estimate": None, "ci95": None, "n": 0}
        shares = m.kind in ("owner", "seat", "first-seat")
        lo, hi = stats.share_ci(values) if shares else stats.mean_ci(values)
        return {"estimate": stats.mean(values), "ci95": [lo, hi], "n": len(values)}
    if m.kind == "used":
        k, total = sum(len(plugin.holders(r, m.card or "")) for r in records), len(records) * n
    else:  # ties
        k, total = sum(1 for r in records if sum(1 for x in r["returns"] if x > 0) > 1), len(records)
    lo, hi = stats.wilson(k, total)
    return {"estimate": k / total if total else None, "ci95": [lo, hi], "n": total}


# edits -> (the game, or None when it is refused; the problems that refuse it; rules-check findings that do not)
LoadPoint = Callable[
    [dict[str, list[edit_tools.Edit]]], tuple[LoadedGame[Any] | None, list[Diagnostic], list[Diagnostic]]
]


def point_loader(root: Path, game_id: str, strict: bool = False) -> LoadPoint:
    """Return how a sweep loads a point: through the Pipeline with the point's edits. It must load (schema,
    references, the ruleset's own load); the rules check's findings are noted, or refuse the point when `strict`."""
    from ..pipeline import Pipeline

    def load(
        edits: dict[str, list[edit_tools.Edit]],
    ) -> tuple[LoadedGame[Any] | None, list[Diagnostic], list[Diagnostic]]:
        point = Pipeline(root, game_id, edits=edits)
        loaded = point.load()
        refused = list(point.report.errors)
        if loaded is None:
            return None, refused, []
        point.validate()
        rules = [d for d in point.report.errors if d not in refused]
        return (loaded, rules, []) if strict else (loaded, [], rules)

    return load


def sweep(
    load: LoadPoint,
    simulation: Callable[[LoadedGame[Any]], Plugin],
    axes: list[Axis],
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    measures: dict[str, Measure],
    chosen: str,
    target: float | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
    meta: dict[str, Any] | None = None,
) -> Sweep:
    """Load, check and simulate every point of the grid; return the report (partial if Ctrl-C stopped it).

    `load(edits)` loads the game with a point's edits and returns it (or None), the problems that refuse the
    point and the rules check's findings that do not (a rulebook printing the shipped value, say);
    `simulation(game)` returns its plugin. Every point plays `games` games seeded by `seed`; `measures` (from
    `measures_for`) are read from each point's games, and `chosen` is the one the verdict is about."""
    combos = grid(axes)
    done: list[Point] = []
    stopped: Interrupted | None = None
    for values in combos:
        try:
            done.append(
                _point(
                    load,
                    simulation,
                    axes,
                    values,
                    Match("main", players, tuple(bots), games, seed),
                    measures,
                    jobs,
                    executor,
                )
            )
        except Interrupted as stop:
            stopped = stop
            break
        except KeyboardInterrupt:  # between the games: loading or measuring a point
            stopped = Interrupted(0, games, "games")
            break
    document = report(axes, done, len(combos), measures, chosen, players, target, meta or {}, stopped)
    return Sweep(axes, done, len(combos), document, stopped)


def _point(
    load: LoadPoint,
    simulation: Callable[[LoadedGame[Any]], Plugin],
    axes: list[Axis],
    values: tuple[Number, ...],
    match: Match,
    measures: dict[str, Measure],
    jobs: int,
    executor: Executor | None,
) -> Point:
    """Load one point with its values set; play its match (the same seeds at every point) unless it is refused."""
    edits = point_edits(axes, values)
    game, problems, notes = load(edits)
    if game is None or problems:
        return Point(values, edit_tools.blame(problems, edits) or _unknown(axes, values))
    plugin = simulation(game)
    label = ", ".join(f"{a.label} = {v:g}" for a, v in zip(axes, values))
    [result] = run_matches(plugin, [match], jobs, executor, label=label)
    point = Point(values, notes=edit_tools.blame(notes, edits))
    point.measures = {name: measure(m, result, plugin) for name, m in measures.items()}
    return point


def _unknown(axes: Sequence[Axis], values: Sequence[Number]) -> list[Diagnostic]:
    shown = ", ".join(f"{a.path} = {v:g}" for a, v in zip(axes, values))
    return [Diagnostic("error", "U017", f"the game could not be loaded with {shown}")]


CHARTED = ("owner", "used", "first-seat", "score")  # the others are tabled, so a report stays quick to draw


def shown_measures(measures: dict[str, Measure], chosen: str) -> tuple[list[str], list[str]]:
    """Return the measures the report charts (the chosen one first) and those it only tables (seats: neither)."""
    rest = [n for n, m in measures.items() if n != chosen and m.kind != "seat"]
    return [chosen] + [n for n in rest if measures[n].kind in CHARTED], [
        n for n in rest if measures[n].kind not in CHARTED
    ]


def report(
    axes: list[Axis],
    points: list[Point],
    total: int,
    measures: dict[str, Measure],
    chosen: str,
    players: int,
    target: float | None,
    meta: dict[str, Any],
    stopped: Interrupted | None,
) -> Document:
    """Return the sweep's report: the verdict, one curve per measure, and every point with its problems."""
    fair = 1 / players
    charted, tabled = shown_measures(measures, chosen)
    valid = [p for p in points if p.valid]
    sections: list[Section] = []
    meta = {
        **meta,
        "varied": "; ".join(
            f"{a.path} over {', '.join(f'{v:g}' for v in a.values)} (card files: {a.base:g})" for a in axes
        ),
        "measure": chosen,
        "points": f"{len(points)} of {total}" + (" (interrupted)" if stopped else ""),
        "invalid points": sum(1 for p in points if not p.valid),
    }
    if chosen in measures:
        sections.append(verdict(axes, points, measures[chosen], chosen, fair, target))
    for name in charted:
        m = measures[name]
        goal = target if name == chosen and target is not None else fair if m.fair else None
        sections.append(curve_section(name, m, axes, valid, goal, "fair share" if goal == fair else "target"))
    if tabled:
        sections.append(table_section(tabled, measures, axes, valid))
    sections.append(points_section(axes, points, charted + tabled, measures))
    intro = [
        f"Balance sweep of {meta.get('game', 'the game')}: {' and '.join(a.label for a in axes)} varied; every "
        f"point plays the same seeded games ({players} players).",
        "Intervals are 95 %. Win rates describe these bots, not people: read the curve's direction and where it "
        "crosses the target, then playtest the values it points to.",
    ]
    if stopped:
        intro.insert(0, f"Interrupted: {len(points)} of {total} points finished; the rest are not in this report.")
    title = f"{meta.get('game', 'sweep')}: sweep of {' × '.join(a.label for a in axes)}"
    return Document(title, meta, sections, intro)


def _values(axes: Sequence[Axis], values: Sequence[Number]) -> str:
    return ", ".join(f"{a.label} = {v:g}" for a, v in zip(axes, values))


def verdict(axes: list[Axis], points: list[Point], m: Measure, name: str, fair: float, target: float | None) -> Section:
    """Return which point brings the chosen measure closest to its target, and which points are consistent with it."""
    goal = target if target is not None else fair if m.fair else None
    measured = [p for p in points if p.valid and p.measures.get(name, {}).get("estimate") is not None]
    base = tuple(a.base for a in axes)
    at_base = next((p for p in measured if p.values == base), None)
    data: dict[str, Any] = {"measure": name, "label": m.label, "target": goal, "best": None, "consistent": []}
    text = []
    if goal is None:
        text.append(
            f"{m.label[:1].upper() + m.label[1:]} has no fair value; give --target to ask which point comes closest to one."
        )
    elif not measured:
        text.append("No point could be measured.")
    else:
        best = min(measured, key=lambda p: (abs(p.measures[name]["estimate"] - goal), points.index(p)))
        est = best.measures[name]
        consistent = [p for p in measured if p.measures[name]["ci95"][0] <= goal <= p.measures[name]["ci95"][1]]
        fmt = pct if m.percent else (lambda v: f"{v:.2f}")
        span = interval(*est["ci95"]) if m.percent else f"[{est['ci95'][0]:.2f}, {est['ci95'][1]:.2f}]"
        what = "fair" if goal == fair and m.fair and target is None else "the target"
        text.append(
            f"**{m.label[:1].upper() + m.label[1:]}** comes closest to {what} ({fmt(goal)}) at "
            f"**{_values(axes, best.values)}**: {fmt(est['estimate'])} {span}."
        )
        text.append(
            "Points whose interval holds it: "
            + ("; ".join(_values(axes, p.values) for p in consistent) if consistent else "none")
            + "."
        )
        if at_base is not None and at_base is not best:
            b = at_base.measures[name]
            text.append(f"As printed ({_values(axes, base)}) it is {fmt(b['estimate'])}.")
        data["best"] = {"values": list(best.values), **est}
        data["consistent"] = [list(p.values) for p in consistent]
        data["as_printed"] = {"values": list(base), **at_base.measures[name]} if at_base else None
    return Section("Closest to fair" if goal == fair else "Closest to the target", "verdict", text, [], data)


def curve_section(
    name: str, m: Measure, axes: list[Axis], valid: list[Point], goal: float | None, goal_label: str
) -> Section:
    """Return one measure along the sweep as a curve (JSON shaped for `charts.sweep`) and its table."""
    x = axes[0]
    group = axes[1] if len(axes) > 1 else None
    curve_points = []
    rows = []
    for p in valid:
        est = p.measures[name]
        item: dict[str, Any] = {"value": p.values[0]}
        if group is not None:
            item["group"] = p.values[1]
        item.update(est)
        curve_points.append(item)
        shown = (
            (pct(est["estimate"]) if m.percent else f"{est['estimate']:.2f}") if est["estimate"] is not None else "–"
        )
        ci = est["ci95"]
        span = "–" if est["estimate"] is None else interval(*ci) if m.percent else f"[{ci[0]:.2f}, {ci[1]:.2f}]"
        rows.append([*(f"{v:g}" for v in p.values), shown, span, est["n"]])
    data: dict[str, Any] = {
        "parameter": x.label,
        "path": x.path,
        "measure": m.label,
        "percent": m.percent,
        "target": goal,
        "target_label": goal_label,
        "points": curve_points,
    }
    if group is not None:
        data["group_parameter"] = group.label
        data["group_path"] = group.path
    headers = [a.label for a in axes] + [m.label[:1].upper() + m.label[1:], "95 % CI", "n"]
    key = name.replace(":", "-")
    return Section(f"{m.label[:1].upper() + m.label[1:]} ({name})", key, [], [Table(headers, rows)], data)


def _estimate(m: Measure, est: dict[str, Any]) -> tuple[str, str]:
    """Return an estimate and its interval as the tables print them."""
    if est.get("estimate") is None:
        return "–", "–"
    lo, hi = est["ci95"]
    if m.percent:
        return pct(est["estimate"]), interval(lo, hi)
    return f"{est['estimate']:.2f}", f"[{lo:.2f}, {hi:.2f}]"


def table_section(names: list[str], measures: dict[str, Measure], axes: list[Axis], valid: list[Point]) -> Section:
    """Return the measures that are tabled, not charted: each point's estimate with its interval."""
    rows = [
        [*(f"{v:g}" for v in p.values), *(" ".join(_estimate(measures[n], p.measures[n])) for n in names)]
        for p in valid
    ]
    headers = [a.label for a in axes] + [measures[n].label[:1].upper() + measures[n].label[1:] for n in names]
    text = ["Each with its 95 % interval; every number is also in the JSON, under `points`."]
    return Section("Other measures", "other_measures", text, [Table(headers, rows)], {"measures": names})


def points_section(axes: list[Axis], points: list[Point], names: list[str], measures: dict[str, Measure]) -> Section:
    """Return every point: its values, whether the game accepted them (and why not), and its measures."""
    rows, data, text = [], [], []
    for p in points:
        problems = [d.render() for d in p.problems]
        row = [*(f"{v:g}" for v in p.values), "yes" if p.valid else "no"]
        for name in names:
            est = p.measures.get(name)
            if not est or est.get("estimate") is None:
                row.append("–")
            else:
                row.append(pct(est["estimate"]) if measures[name].percent else f"{est['estimate']:.2f}")
        rows.append(row)
        data.append(
            {
                "values": {a.path: v for a, v in zip(axes, p.values)},
                "valid": p.valid,
                "problems": [_problem(d) for d in p.problems],
                "rules_check": [_problem(d) for d in p.notes],
                "measures": p.measures,
            }
        )
        if problems:
            text.append(f"{_values(axes, p.values)} is not a valid game, so it was not played:")
            text += [f"`{d.headline()}`" + (f" ({d.hint})" if d.hint else "") for d in p.problems]
    noted = [p for p in points if p.notes]
    if noted:
        codes = sorted({d.code for p in noted for d in p.notes})
        first = noted[0].notes[0]
        text.append(
            f"The rules check disagrees with {len(noted)} played point(s) ({', '.join(codes)}), e.g. at "
            f"{_values(axes, noted[0].values)}: `{first.headline()}`. A rulebook that prints the shipped values "
            "disagrees with any other; these points were played anyway (`--strict` skips them). Every finding "
            "is in the JSON."
        )
    headers = [a.label for a in axes] + ["Valid"] + names
    return Section("Every point", "points", text, [Table(headers, rows)], data)


def _problem(d: Diagnostic) -> dict[str, Any]:
    out: dict[str, Any] = {"code": d.code, "message": d.message, "path": d.path, "hint": d.hint}
    if d.loc is not None:
        out.update(file=d.loc.file, line=d.loc.line, col=d.loc.col)
    return out


def default_folder(game: str, axes: Sequence[Axis]) -> Path:
    """Return output/<game>/sweep/<what was varied>/, relative to the working folder."""
    stem = "--".join(a.path.removeprefix("cards.").removeprefix("game.").replace(".", "-") for a in axes)
    return Path("output") / game / "sweep" / stem
