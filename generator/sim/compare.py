"""Compare two editions of one game: play both with the same seeds, bots and player count, and report each
difference with a 95 % interval, corrected for the many rows a table tests, on the explored seeds and on fresh ones.

Game i of A and game i of B are dealt from the same seed, so a difference is measured game by game (paired):
the noise the two share cancels, and the interval is the paired t interval of the mean difference. A measure
that applies to only some games (the lap a frozen game froze) or to players (the win share of the players who
built a machine) is compared unpaired, with Welch's t. Each table's p-values are Holm-corrected: **differs**
means the corrected p is below 0.05.

`replicate=K` plays K more seed blocks, disjoint from the explored one (and from any other `--seed`): a
difference found on the explored seeds *replicates* when every fresh block finds it again with the same sign.
Each block is reported on its own and all of them pooled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import charts, glossary, stats
from .plugin import Plugin
from .report import Document, Section, Table, pct, to_json
from .runner import Match, MatchResult, run_matches
from .simulate import match_sections
from .tasks import Executor, Interrupted

MAX_REPLICATE = 10
PerGame = Sequence[float | None | tuple[float, ...]]  # one value per game; a tuple holds one per player


@dataclass(frozen=True)
class Block:
    """A block of seeded games: the explored one (`--seed`), or a fresh one that no `--seed` ever deals."""

    name: str  # for people: "seed 1", "fresh 1"
    label: str  # the match label the game seeds derive from: "main" (as `simulate`), "fresh-1", …
    seed: int
    fresh: bool


def blocks(seed: int, replicate: int = 0) -> list[Block]:
    """Return the explored block and `replicate` fresh ones (game seeds derive from a label no explored run uses)."""
    return [Block(f"seed {seed}", "main", seed, False)] + [
        Block(f"fresh {k}", f"fresh-{k}", seed, True) for k in range(1, replicate + 1)
    ]


@dataclass
class Comparison:
    """The comparison report, both runs (every block pooled), each run's own simulation report and the blocks."""

    document: Document
    a: MatchResult
    b: MatchResult
    reports: tuple[Document, Document]
    blocks: list[Block]
    rows: list[Row]


@dataclass(frozen=True)
class Delta:
    """One measure in A and in B over one set of games, and B − A with its 95 % interval and p-values."""

    key: str
    label: str
    a: float | None
    b: float | None
    delta: float | None
    ci95: tuple[float, float] | None
    paired: bool
    games: tuple[int, int]  # games (or player-games) where it applies, in A and in B
    share: bool
    p: float | None = None
    p_holm: float | None = None  # corrected over the rows of its table (None until `correct` sets it)

    @property
    def differs(self) -> bool:
        """Return True when the Holm-corrected p-value is below 0.05 (the uncorrected one before correction)."""
        p = self.p_holm if self.p_holm is not None else None
        return p is not None and p < stats.ALPHA

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
            "p": self.p,
            "p_holm": self.p_holm,
            "differs": self.differs,
        }


def delta(key: str, label: str, xa: PerGame, xb: PerGame, share: bool = False) -> Delta:
    """Return B − A for a per-game measure: paired when it applies to every game of both runs, else Welch's.

    A game's value may be a tuple (one number per player it applies to): such a measure is pooled over
    player-games and compared unpaired."""
    players = any(isinstance(x, tuple) for x in (*xa, *xb))
    va = _flat(xa)
    vb = _flat(xb)
    ma = stats.mean(va) if va else None
    mb = stats.mean(vb) if vb else None
    paired = not players and len(xa) == len(xb) and len(va) == len(xa) and len(vb) == len(xb)
    if ma is None or mb is None:
        return Delta(key, label, ma, mb, None, None, paired, (len(va), len(vb)), share)
    diff = stats.paired(va, vb) if paired else stats.welch(va, vb)
    return Delta(key, label, ma, mb, diff.estimate, diff.ci95, paired, (len(va), len(vb)), share, diff.p)


def _flat(values: PerGame) -> list[float]:
    out: list[float] = []
    for x in values:
        if isinstance(x, tuple):
            out += x
        elif x is not None:
            out.append(x)
    return out


def correct(deltas: Sequence[Delta]) -> list[Delta]:
    """Return the deltas with their Holm-corrected p-values (the family: these rows, one table of one block)."""
    adjusted = stats.holm([d.p for d in deltas])
    return [replace(d, p_holm=p) for d, p in zip(deltas, adjusted)]


@dataclass(frozen=True)
class Row:
    """One measure across the seed blocks: each block's delta, all blocks pooled, and whether it replicates."""

    key: str
    label: str
    share: bool
    per_block: tuple[Delta, ...]
    pooled: Delta
    group: str = ""

    @property
    def replicates(self) -> bool | None:
        """Return True when the explored block's difference is found again, same sign, in every fresh block;
        False when it is not; None when the explored block shows none or there is no fresh block."""
        first, *fresh = self.per_block
        if not fresh or not first.differs or first.delta is None:
            return None
        return all(d.differs and d.delta is not None and (d.delta > 0) == (first.delta > 0) for d in fresh)

    def verdict(self) -> str:
        """Return what the report says of the row: differs, replicates, does not replicate, or nothing."""
        if len(self.per_block) == 1:
            return "**differs**" if self.per_block[0].differs else ""
        if self.replicates:
            return "**differs**, replicates"
        if self.replicates is False:
            return "**does not replicate**"
        fresh = self.per_block[1:]
        if all(d.differs for d in fresh) and len({(d.delta or 0) > 0 for d in fresh}) == 1:
            return "differs on fresh seeds only"
        return "differs pooled" if self.pooled.differs else ""

    def to_json(self) -> dict[str, Any]:
        """Return the row: pooled numbers at the top level, each block's under `blocks`."""
        return {
            **self.pooled.to_json(),
            "blocks": [d.to_json() for d in self.per_block],
            "replicates": self.replicates,
            "verdict": self.verdict().replace("**", ""),
        }


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
    replicate: int = 0,
    meta: dict[str, Any] | None = None,
) -> Comparison:
    """Play `games` seeded games of each edition per seed block with the same line-up; return the report.

    `replicate` fresh blocks follow the explored one. `executor` (local processes or a Dask cluster) overrides
    `jobs`. Ctrl-C raises `Interrupted` with the games finished in both runs together."""
    plan = blocks(seed, replicate)
    matches = [Match(block.label, players, tuple(bots), games, block.seed) for block in plan]
    total = 2 * games * len(plan)
    try:
        ra_blocks = run_matches(a, matches, jobs, executor, label=f"compare: A {labels[0]}")
    except Interrupted as stop:
        raise Interrupted(stop.done, total, stop.unit) from None
    try:
        rb_blocks = run_matches(b, matches, jobs, executor, label=f"compare: B {labels[1]}")
    except Interrupted as stop:
        raise Interrupted(total // 2 + stop.done, total, stop.unit) from None
    ra, rb = _pooled(ra_blocks), _pooled(rb_blocks)
    reports = (_report(a, ra, labels[0]), _report(b, rb, labels[1]))
    tables: list[tuple[str, str, list[Row], list[str]]] = [
        ("Seats", "seats", _rows("Seats", _seat_measures(ra), ra_blocks, rb_blocks), _seats_text(ra)),
        (
            "First player, points and length",
            "general",
            _rows("First player, points and length", _general_measures(ra, rb), ra_blocks, rb_blocks),
            [],
        ),
    ]
    groups = _game_groups(a, b, ra_blocks, rb_blocks)
    for title, (rows, note) in groups.items():
        tables.append((title, _slug(title), rows, note))
    sections = [_section(title, key, rows, labels, plan, text) for title, key, rows, text in tables]
    every_row = [row for _, _, rows, _ in tables for row in rows]
    if replicate:
        sections.insert(0, replication_section(every_row, plan))
    sections.append(
        Section(
            "Both runs side by side",
            "runs",
            [
                f"The JSON file holds each run's whole simulation report, every seed block pooled ({labels[0]} as "
                f"`a`, {labels[1]} as `b`); the charts are drawn from it."
            ],
            [],
            {"labels": list(labels), "a": to_json(reports[0]), "b": to_json(reports[1])},
        )
    )
    sections.append(glossary.section(glossary.COMPARISON))
    lineup = ", ".join(ra.bot_names)
    info = {
        "A": labels[0],
        "B": labels[1],
        "players": players,
        "bots (seat 1 first)": lineup,
        "games each": games if not replicate else f"{games} per seed block, {len(plan)} blocks",
        "seed": seed,
        "seed blocks": "; ".join(f"{blk.name} (label {blk.label})" for blk in plan),
        "correction": f"{stats.HOLM}, per table and seed block",
        **(meta or {}),
    }
    intro = [
        f"{labels[1]} (B) against {labels[0]} (A): {games} games each per seed block, {players} players "
        f"({lineup}), game i of both dealt from the same seed.",
        "Δ is B − A with its 95 % interval (paired by game where a measure applies to every game, else Welch's). "
        "**Differs** marks a row whose Holm-corrected p-value (over the rows of its table) is below 0.05.",
    ]
    if replicate:
        intro.append(
            f"The explored block (seed {seed}, the games `simulate --seed {seed}` plays) is replicated on "
            f"{replicate} fresh block(s) no `--seed` deals; a difference *replicates* when every fresh block flags "
            "it again with the same sign."
        )
    document = Document(f"{labels[1]} against {labels[0]}: simulated comparison", info, sections, intro)
    return Comparison(document, ra, rb, reports, plan, every_row)


def _pooled(results: Sequence[MatchResult]) -> MatchResult:
    """Return every block's games as one result (each record keeps its own seed)."""
    first = results[0]
    records = [r for result in results for r in result.records]
    match = replace(first.match, games=len(records))
    return MatchResult(match, records, first.bot_names)


Measurer = tuple[str, str, Callable[[dict[str, Any]], float | None], bool]  # key, label, per-game value, share


def _rows(group: str, measures: Sequence[Measurer], ra: Sequence[MatchResult], rb: Sequence[MatchResult]) -> list[Row]:
    """Return a table's rows from per-game measures, each block corrected on its own."""
    per_block = [
        correct(
            [
                delta(k, label, [f(r) for r in xa.records], [f(r) for r in xb.records], share)
                for k, label, f, share in measures
            ]
        )
        for xa, xb in zip(ra, rb)
    ]
    pooled = correct(
        [
            delta(k, label, [f(r) for x in ra for r in x.records], [f(r) for x in rb for r in x.records], share)
            for k, label, f, share in measures
        ]
    )
    return [
        Row(m[0], m[1], m[3], tuple(block[i] for block in per_block), pooled[i], group) for i, m in enumerate(measures)
    ]


def _game_groups(
    a: Plugin, b: Plugin, ra: Sequence[MatchResult], rb: Sequence[MatchResult]
) -> dict[str, tuple[list[Row], list[str]]]:
    """Return the game's own measures (from each plugin's `measures`), one table per group, paired up by key."""
    # group -> key -> [label in A, label in B, share, per block: (A's values, B's values)]
    groups: dict[str, dict[str, list[Any]]] = {}
    nblocks = len(ra)
    for side, (plugin, results) in enumerate(((a, ra), (b, rb))):
        for k, result in enumerate(results):
            for i, record in enumerate(result.records):
                for m in plugin.measures(record):
                    row = groups.setdefault(m.group, {}).setdefault(
                        m.key,
                        [
                            None,
                            None,
                            m.share,
                            [([None] * len(ra[j].records), [None] * len(rb[j].records)) for j in range(nblocks)],
                        ],
                    )
                    row[side] = m.label
                    row[3][k][side][i] = m.value
    out: dict[str, tuple[list[Row], list[str]]] = {}
    for title, rows in groups.items():
        keys = list(rows)
        per_block = [
            correct(
                [
                    delta(key, _label(rows[key][0], rows[key][1]), rows[key][3][k][0], rows[key][3][k][1], rows[key][2])
                    for key in keys
                ]
            )
            for k in range(nblocks)
        ]
        pooled = correct(
            [
                delta(
                    key,
                    _label(rows[key][0], rows[key][1]),
                    [x for k in range(nblocks) for x in rows[key][3][k][0]],
                    [x for k in range(nblocks) for x in rows[key][3][k][1]],
                    rows[key][2],
                )
                for key in keys
            ]
        )
        out[title] = (
            [
                Row(key, pooled[i].label, rows[key][2], tuple(block[i] for block in per_block), pooled[i], title)
                for i, key in enumerate(keys)
            ],
            _note(rows),
        )
    return out


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


def _random_first(result: MatchResult) -> bool:
    return bool(result.records) and "first" in result.records[0].get("extra", {})


def _seat_measures(ra: MatchResult) -> list[Measurer]:
    def returns(seat: int) -> Callable[[dict[str, Any]], float | None]:
        return lambda r: r["returns"][seat]

    return [
        (str(seat + 1), f"seat {seat + 1} ({ra.bot_names[seat]})", returns(seat), True)
        for seat in range(ra.match.players)
    ]


def _seats_text(ra: MatchResult) -> list[str]:
    n = ra.match.players
    first = "the first player drawn at random" if _random_first(ra) else "seat 1"
    return [f"Win share by seat (a win shared by k players counts 1/k); a fair seat wins {pct(1 / n)}; {first} starts."]


def first_seat(record: dict[str, Any]) -> int:
    """Return the seat that takes the game's first turn (the recorder's `first` when drawn, else seat 1)."""
    first: int = record.get("extra", {}).get("first", 0)
    return first


def first_to_last(record: dict[str, Any]) -> float:
    """Return the first player's win share minus the last player's (last in the first round's turn order)."""
    n = len(record["returns"])
    first = first_seat(record)
    gap: float = record["returns"][first] - record["returns"][(first + n - 1) % n]
    return gap


def _general_measures(ra: MatchResult, rb: MatchResult) -> list[Measurer]:
    def first(r: dict[str, Any]) -> float:
        share: float = r["returns"][first_seat(r)]
        return share

    def margin(r: dict[str, Any]) -> float:
        top = sorted(r["scores"], reverse=True)
        gap: float = top[0] - top[1] if len(top) > 1 else top[0]
        return gap

    measures: list[Measurer] = [
        ("first-player", "first player's win share", first, True),
        ("first-to-last", "first-to-last gap (first player's win share − last's)", first_to_last, True),
        ("points", "points per player", lambda r: stats.mean(r["scores"]), False),
        ("winner-points", "winner's points", lambda r: max(r["scores"]), False),
        ("margin", "winning margin (1st − 2nd)", margin, False),
        ("shared-win", "games with a shared win", lambda r: float(sum(x > 0 for x in r["returns"]) > 1), True),
        ("zero-win", "games won with 0 points", lambda r: float(max(r["scores"]) == 0), True),
    ]
    both = (*ra.records, *rb.records)
    if all("decisions" in r for r in both):
        measures.append(("decisions", "decisions per game (game length)", lambda r: r["decisions"], False))
    if all("turns" in r.get("extra", {}) for r in both):
        measures.append(("turns", "turns per game (game length)", lambda r: r["extra"]["turns"], False))
    if all("score_by_round" in r.get("extra", {}) for r in both):
        measures.append(("rounds", "rounds per game (game length)", lambda r: len(r["extra"]["score_by_round"]), False))
    return measures


def _label(a: str | None, b: str | None) -> str:
    """Return a row's label; a card renamed by the edition shows both names."""
    if b is None or a == b:
        assert a is not None  # a row has a label from at least one run
        return a
    return b if a is None else f"{a} → {b}"


def _note(rows: dict[str, list[Any]]) -> list[str]:
    """Say which rows exist in one run only (a card an edition adds or removes)."""

    def used(blocks: list[Any], side: int) -> bool:
        return any(x is not None and x != () for blk in blocks for x in blk[side])

    only_a = [la for la, lb, _, blocks in rows.values() if lb is None and used(blocks, 0)]
    only_b = [lb for la, lb, _, blocks in rows.values() if la is None and used(blocks, 1)]
    text = []
    if only_a:
        text.append("Only in A: " + ", ".join(only_a) + ".")
    if only_b:
        text.append("Only in B: " + ", ".join(only_b) + ".")
    return text


def _caption(rows: Sequence[Row], plan: Sequence[Block]) -> str:
    unpaired = any(not r.pooled.paired for r in rows)
    per = "each seed block (✱ in its column) and all pooled" if len(plan) > 1 else "this table"
    return (
        f"Intervals: paired t (same seeds){'; † Welch’s t (unpaired)' if unpaired else ''}. "
        f"Flags: {stats.HOLM}-corrected over the {len(rows)} rows of this table, for {per}."
    )


def _section(
    title: str, key: str, rows: list[Row], labels: tuple[str, str], plan: Sequence[Block], text: list[str]
) -> Section:
    if len(plan) == 1:
        headers = ["Measure", f"A: {labels[0]}", f"B: {labels[1]}", "Δ (B − A)", "95 % CI", "Holm p", ""]
        body = [
            [
                r.label,
                _value(r.pooled.a, r.share),
                _value(r.pooled.b, r.share),
                _signed(r.pooled.delta, r.share),
                _interval(r.pooled.ci95, r.share) + ("" if r.pooled.paired else " †"),
                _p(r.pooled.p_holm),
                r.verdict(),
            ]
            for r in rows
        ]
    else:
        headers = ["Measure", f"A: {labels[0]}", f"B: {labels[1]}"]
        headers += [f"Δ {blk.name} [95 % CI]" for blk in plan] + ["Δ pooled [95 % CI]", ""]
        body = [
            [
                r.label,
                _value(r.pooled.a, r.share),
                _value(r.pooled.b, r.share),
                *(_cell(d, r.share) for d in r.per_block),
                _cell(r.pooled, r.share),
                r.verdict(),
            ]
            for r in rows
        ]
    table = Table(headers, body, caption=_caption(rows, plan))
    data = [r.to_json() for r in rows]
    return Section(title, key, text, [table], data)


def replication_section(rows: Sequence[Row], plan: Sequence[Block]) -> Section:
    """Return which differences found on the explored seeds replicate on the fresh blocks, and which do not."""
    found = [r for r in rows if r.per_block[0].differs]
    held = [r for r in found if r.replicates]
    lost = [r for r in found if r.replicates is False]
    new = [r for r in rows if not r.per_block[0].differs and r.verdict() == "differs on fresh seeds only"]
    fresh = ", ".join(blk.name for blk in plan[1:])
    text = [
        f"{len(found)} row(s) differ on {plan[0].name} (Holm, per table); {len(held)} replicate on {fresh} and "
        f"{len(lost)} do not."
    ]
    if lost:
        text.append(
            "**Does not replicate**: "
            + "; ".join(
                f"{_where(r)}{r.label} ({_signed(r.per_block[0].delta, r.share)} on {plan[0].name})" for r in lost
            )
            + ". Treat these as luck of the explored seeds until more games say otherwise."
        )
    if held:
        text.append("Replicates: " + "; ".join(f"{_where(r)}{r.label}" for r in held) + ".")
    if new:
        text.append(
            "Differs on every fresh block but not on the explored one: "
            + "; ".join(f"{_where(r)}{r.label}" for r in new)
            + "."
        )
    data = {
        "blocks": [{"name": blk.name, "label": blk.label, "seed": blk.seed, "fresh": blk.fresh} for blk in plan],
        "differs_explored": len(found),
        "replicates": [{"group": r.group, "key": r.key, "label": r.label} for r in held],
        "does_not_replicate": [{"group": r.group, "key": r.key, "label": r.label} for r in lost],
        "fresh_only": [{"group": r.group, "key": r.key, "label": r.label} for r in new],
    }
    return Section("Replication on fresh seeds", "replication", text, [], data)


def _where(row: Row) -> str:
    return f"{row.group}: " if row.group else ""


def _cell(d: Delta, share: bool) -> str:
    if d.delta is None:
        return "–"
    flag = " ✱" if d.differs else ""
    return f"{_signed(d.delta, share)} {_interval(d.ci95, share)}{'' if d.paired else ' †'}{flag}"


def _p(p: float | None) -> str:
    if p is None:
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


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
