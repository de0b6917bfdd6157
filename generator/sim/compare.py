"""Compare two editions of one game: play both with the same seeds, bots and player count, and report each
difference with a 95 % interval.

Game i of A and game i of B are dealt from the same seed, so their difference is measured game by game
(paired): the noise the two share cancels, and the interval is that of the mean paired difference. A measure
that applies to only some games (the lap a frozen game froze; the win share of a Core nobody kept) is
compared unpaired, over the games where it applies (Welch's normal interval).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import charts, stats
from .plugin import Plugin
from .report import Document, Section, Table, pct, to_json
from .runner import Match, MatchResult, run_matches
from .simulate import match_sections
from .tasks import Executor, Interrupted


@dataclass
class Comparison:
    """The comparison report, and each run's own simulation report and games."""

    document: Document
    a: MatchResult
    b: MatchResult
    reports: tuple[Document, Document]


@dataclass(frozen=True)
class Delta:
    """One measure in A and in B, and B − A with its 95 % interval."""

    key: str
    label: str
    a: float | None
    b: float | None
    delta: float | None
    ci95: tuple[float, float] | None
    paired: bool
    games: tuple[int, int]  # games where it applies, in A and in B
    share: bool

    @property
    def differs(self) -> bool:
        """Return True when the interval excludes no difference."""
        return self.ci95 is not None and (self.ci95[0] > 0 or self.ci95[1] < 0)

    def to_json(self) -> dict[str, Any]:
        """Return the numbers."""
        return {
            "key": self.key,
            "label": self.label,
            "a": self.a,
            "b": self.b,
            "delta": self.delta,
            "ci95": list(self.ci95) if self.ci95 else None,
            "paired": self.paired,
            "games": list(self.games),
            "differs": self.differs,
        }


def delta(key: str, label: str, xa: Sequence[float | None], xb: Sequence[float | None], share: bool = False) -> Delta:
    """Return B − A for a per-game measure: paired when it applies to every game of both runs, else unpaired."""
    va = [x for x in xa if x is not None]
    vb = [x for x in xb if x is not None]
    ma = stats.mean(va) if va else None
    mb = stats.mean(vb) if vb else None
    paired = len(xa) == len(xb) and len(va) == len(xa) and len(vb) == len(xb)
    ci: tuple[float, float] | None = None
    if ma is None or mb is None:
        d = None
    elif paired:
        diffs = [y - x for x, y in zip(va, vb)]
        d = stats.mean(diffs)
        ci = stats.mean_ci(diffs) if len(diffs) > 1 else None
    else:
        d = mb - ma
        if len(va) > 1 and len(vb) > 1:
            half = stats.Z95 * math.sqrt(stats.stdev(va) ** 2 / len(va) + stats.stdev(vb) ** 2 / len(vb))
            ci = (d - half, d + half)
    return Delta(key, label, ma, mb, d, ci, paired, (len(va), len(vb)), share)


def compare(
    a: Plugin,
    b: Plugin,
    labels: tuple[str, str],
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    executor: Executor | None = None,
) -> Comparison:
    """Play `games` seeded games of each edition with the same line-up; return the comparison report.

    `executor` (local processes or a Dask cluster) overrides `jobs`. Ctrl-C raises `Interrupted` with the
    games finished in both runs together."""
    match = Match("main", players, tuple(bots), games, seed)
    try:
        (ra,) = run_matches(a, [match], jobs, executor, label=f"compare: A {labels[0]}")
    except Interrupted as stop:
        raise Interrupted(stop.done, 2 * games, stop.unit) from None
    try:
        (rb,) = run_matches(b, [match], jobs, executor, label=f"compare: B {labels[1]}")
    except Interrupted as stop:
        raise Interrupted(games + stop.done, 2 * games, stop.unit) from None
    reports = (_report(a, ra, labels[0]), _report(b, rb, labels[1]))
    sections = [_seats(ra, rb, labels), _general(ra, rb, labels)]
    groups: dict[str, dict[str, list[Any]]] = {}  # group -> key -> [label in A, label in B, share, A's, B's]
    for side, (plugin, result) in enumerate(((a, ra), (b, rb))):
        for i, record in enumerate(result.records):
            for m in plugin.measures(record):
                row = groups.setdefault(m.group, {}).setdefault(
                    m.key, [None, None, m.share, [None] * len(ra.records), [None] * len(rb.records)]
                )
                row[side] = m.label
                row[3 + side][i] = m.value
    for title, rows in groups.items():
        deltas = [delta(key, _label(la, lb), xa, xb, share) for key, (la, lb, share, xa, xb) in rows.items()]
        sections.append(_section(title, _slug(title), deltas, labels, _note(rows)))
    sections.append(
        Section(
            "Both runs side by side",
            "runs",
            [
                f"The JSON file holds each run's whole simulation report ({labels[0]} as `a`, {labels[1]} as `b`); "
                "the charts are drawn from it."
            ],
            [],
            {"labels": list(labels), "a": to_json(reports[0]), "b": to_json(reports[1])},
        )
    )
    lineup = ", ".join(ra.bot_names)
    meta = {
        "A": labels[0],
        "B": labels[1],
        "players": players,
        "bots (seat 1 first)": lineup,
        "games each": games,
        "seed": seed,
    }
    intro = [
        f"{labels[1]} (B) against {labels[0]} (A): {games} games each, {players} players ({lineup}), game i of "
        "both dealt from the same seed.",
        "Δ is B − A with its 95 % interval (paired by game where a measure applies to every game). **Differs** "
        "marks an interval that excludes zero; with many rows, expect about one in twenty to do so by chance.",
    ]
    document = Document(f"{labels[1]} against {labels[0]}: simulated comparison", meta, sections, intro)
    return Comparison(document, ra, rb, reports)


# Where each side-by-side chart is shown: beside the differences it illustrates (the rest with both runs).
CHART_SECTIONS = {
    "compare-win-share-by-seat": "seats",
    "compare-score-distribution": "general",
    "compare-game-length": "general",
}


def report_charts(report: dict[str, Any]) -> list[charts.Chart]:
    """Return a comparison report's charts: both runs side by side, read from the two runs its JSON holds.

    The comparison's own sections hold differences, not a simulation report, so only the section that
    holds both runs in full is charted (by `charts.for_report`); each chart is then shown in the section
    it illustrates, its source still naming where its numbers are."""
    built = charts.for_report({"sections": {"runs": report["sections"]["runs"]}})
    return [replace(chart, section=CHART_SECTIONS.get(chart.key, chart.section)) for chart in built]


def _report(plugin: Plugin, result: MatchResult, label: str) -> Document:
    """Return one run's simulation report (the sections `simulate` writes for its main match)."""
    sections = match_sections(plugin, result)
    meta = {"game": label, "players": result.match.players, "games": len(result.records), "seed": result.match.seed}
    return Document(f"{label}: simulated playtest", meta, sections)


def _per_game(result: MatchResult, value: Callable[[dict[str, Any]], float | None]) -> list[float | None]:
    return [value(r) for r in result.records]


def _seats(ra: MatchResult, rb: MatchResult, labels: tuple[str, str]) -> Section:
    n = ra.match.players

    def returns(seat: int) -> Callable[[dict[str, Any]], float | None]:
        return lambda r: r["returns"][seat]

    deltas = [
        delta(
            str(seat + 1),
            f"seat {seat + 1} ({ra.bot_names[seat]})",
            _per_game(ra, returns(seat)),
            _per_game(rb, returns(seat)),
            share=True,
        )
        for seat in range(n)
    ]
    first = "the first player drawn at random" if _random_first(ra) else "seat 1"
    text = [f"Win share by seat (a win shared by k players counts 1/k); a fair seat wins {pct(1 / n)}; {first} starts."]
    return _section("Seats", "seats", deltas, labels, text)


def _random_first(result: MatchResult) -> bool:
    return bool(result.records) and "first" in result.records[0].get("extra", {})


def _general(ra: MatchResult, rb: MatchResult, labels: tuple[str, str]) -> Section:
    def first(r: dict[str, Any]) -> float:
        share: float = r["returns"][r.get("extra", {}).get("first", 0)]
        return share

    def margin(r: dict[str, Any]) -> float:
        top = sorted(r["scores"], reverse=True)
        gap: float = top[0] - top[1] if len(top) > 1 else top[0]
        return gap

    measures: list[tuple[str, str, Callable[[dict[str, Any]], float | None], bool]] = [
        ("first-player", "first player's win share", first, True),
        ("points", "points per player", lambda r: stats.mean(r["scores"]), False),
        ("winner-points", "winner's points", lambda r: max(r["scores"]), False),
        ("margin", "winning margin (1st − 2nd)", margin, False),
        ("shared-win", "games with a shared win", lambda r: float(sum(x > 0 for x in r["returns"]) > 1), True),
        ("zero-win", "games won with 0 points", lambda r: float(max(r["scores"]) == 0), True),
    ]
    if all("decisions" in r for r in (*ra.records, *rb.records)):
        measures.append(("decisions", "decisions per game (game length)", lambda r: r["decisions"], False))
    if all("turns" in r.get("extra", {}) for r in (*ra.records, *rb.records)):
        measures.append(("turns", "turns per game (game length)", lambda r: r["extra"]["turns"], False))
    if all("score_by_round" in r.get("extra", {}) for r in (*ra.records, *rb.records)):
        measures.append(("rounds", "rounds per game (game length)", lambda r: len(r["extra"]["score_by_round"]), False))
    deltas = [delta(k, label, _per_game(ra, f), _per_game(rb, f), share) for k, label, f, share in measures]
    return _section("First player, points and length", "general", deltas, labels, [])


def _label(a: str | None, b: str | None) -> str:
    """Return a row's label; a card renamed by the edition shows both names."""
    if b is None or a == b:
        assert a is not None  # a row has a label from at least one run
        return a
    return b if a is None else f"{a} → {b}"


def _note(rows: dict[str, list[Any]]) -> list[str]:
    """Say which rows exist in one run only (a card an edition adds or removes)."""
    only_a = [la for la, lb, _, xa, xb in rows.values() if lb is None and any(x is not None for x in xa)]
    only_b = [lb for la, lb, _, xa, xb in rows.values() if la is None and any(x is not None for x in xb)]
    text = []
    if only_a:
        text.append("Only in A: " + ", ".join(only_a) + ".")
    if only_b:
        text.append("Only in B: " + ", ".join(only_b) + ".")
    return text


def _section(title: str, key: str, deltas: list[Delta], labels: tuple[str, str], text: list[str]) -> Section:
    rows = [
        [
            d.label,
            _value(d.a, d.share),
            _value(d.b, d.share),
            _signed(d.delta, d.share),
            _interval(d.ci95, d.share),
            "**differs**" if d.differs else "",
        ]
        for d in deltas
    ]
    table = Table(["Measure", f"A: {labels[0]}", f"B: {labels[1]}", "Δ (B − A)", "95 % CI", ""], rows)
    return Section(title, key, text, [table], [d.to_json() for d in deltas])


def _value(x: float | None, share: bool) -> str:
    if x is None:
        return "–"
    return pct(x) if share else f"{x:.2f}"


def _signed(x: float | None, share: bool) -> str:
    if x is None:
        return "–"
    return f"{100 * x:+.1f} pp" if share else f"{x:+.2f}"


def _interval(ci: tuple[float, float] | None, share: bool) -> str:
    if ci is None:
        return "–"
    if share:
        return f"[{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}] pp"
    return f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def _slug(title: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in title.casefold()).strip("_")
