"""Pocket Foundry's simulation hooks: bots by spec, a per-game recorder, and its own report sections."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...sdk import (
    CHANCE,
    BotSpecError,
    CardpressError,
    Diagnostic,
    MatchResult,
    Measure,
    RandomBot,
    Report,
    Section,
    Table,
    bar,
    did_you_mean,
    interval,
    pct,
    stats,
)
from .analysis import opening_stall_probability
from .botconfig import BotConfig
from .bots import LookaheadBot, PlannerBot, PriorityBot, solver_for
from .deadend import dead_ends_for
from .engine import Game, State
from .model import PocketFoundry
from .tables import EMPTY, tables_for

if TYPE_CHECKING:
    from ...sdk import Bot

BUILTIN_BOTS = {
    "random": "a uniformly random legal action (every run mask counts as one action)",
    "planner": "exact solo look-ahead over all its remaining turns (assumes any type can be built later, "
    "ignores opponents); fast",
    "lookahead": "the strong bot: the planner's best few moves, each tried over the rest of the lap with "
    "planner opponents and sampled deals",
}


@dataclass
class PocketFoundrySim:
    """Simulation plugin for one Pocket Foundry edition (picklable: plain model and bot configs)."""

    model: PocketFoundry
    scripted: dict[str, BotConfig] = field(default_factory=dict)
    game_id: str = "pocket-foundry"
    broken: dict[str, tuple[Diagnostic, ...]] = field(default_factory=dict)  # bots.yaml's bots that cannot play
    strong_bot: str = "lookahead"
    default_bots: str = "lookahead"
    round_name: str = "lap"
    turn_order: str = "Seat 1 starts lap 1; the marker then moves one seat clockwise each lap."

    @property
    def players(self) -> tuple[int, ...]:
        """Return the supported player counts."""
        return self.model.players

    @property
    def default_players(self) -> int:
        """Return 4 when supported (a typical table), else the edition's default."""
        return 4 if 4 in self.model.players else self.model.default_players

    def new_game(self, players: int) -> Game:
        """Return the engine for `players` seats (seat 0 starts lap 1)."""
        return Game(self.model, players)

    def bot_help(self) -> str:
        """Return one line per bot."""
        lines = [f"  {name}: {about}" for name, about in BUILTIN_BOTS.items()]
        lines += [f"  {name}: {cfg.about or 'scripted (bots.yaml)'}" for name, cfg in self.scripted.items()]
        lines += [
            f"  {name}: cannot play until bots.yaml is fixed (`cardpress validate`)" for name in self.broken if name
        ]
        return "\n".join(lines)

    def check_spec(self, spec: str) -> str:
        """Return the canonical bot name for `spec`; raise the problems of a broken scripted bot, or BotSpecError."""
        name = spec.strip().casefold().removeprefix("priority:")
        if name in BUILTIN_BOTS or name in self.scripted:
            return name
        if name in self.broken or (self.broken.get("") and name not in BUILTIN_BOTS):
            report = Report()
            report.extend(self.broken.get(name, ()) or self.broken[""])
            raise CardpressError(report)  # the bot asked for cannot play: say why, where
        known = [*BUILTIN_BOTS, *self.scripted, *(b for b in self.broken if b)]
        hint = did_you_mean(name, known)
        raise BotSpecError(f"unknown bot '{spec}'" + (f"; {hint}" if hint else "") + f" (bots: {', '.join(known)})")

    def make_bot(self, spec: str, seat: int) -> Bot[State]:
        """Return a bot for `spec`."""
        name = self.check_spec(spec)
        t = tables_for(self.model)
        if name == "random":
            return RandomBot(seat)
        if name == "planner":
            return PlannerBot(t, seat)
        if name == "lookahead":
            return LookaheadBot(t, seat)
        return PriorityBot(t, self.scripted[name], seat)

    def prepare(self, specs: Sequence[str]) -> None:
        """Build the planner's value table (scripted bots use it too) once, before worker processes start."""
        if any(self.check_spec(s) != "random" for s in specs):  # random-only matches need no table
            t = tables_for(self.model)
            solver_for(t).layer(t.laps)

    def recorder(self, game: Game) -> Recorder:
        """Return a fresh recorder."""
        return Recorder(game)

    def sections(self, main: MatchResult) -> list[Section]:
        """Return the machine, dead-end and market sections."""
        return [machines_section(self.model, main), dead_end_section(self.model, main), market_section(main)]

    def measures(self, record: dict[str, Any]) -> list[Measure]:
        """Return one game's dead end, market and per-machine numbers, machines keyed by id (for `compare`)."""
        extra, returns = record["extra"], record["returns"]
        dead = extra["dead_end"]
        out = [
            Measure("Dead ends", "frozen", "games that freeze (nobody can ever build again)", float(bool(dead)), True),
            Measure("Dead ends", "frozen-setup", "…frozen already at setup", float(bool(dead and dead["setup"])), True),
            Measure(
                "Dead ends",
                "frozen-scoreless",
                "…frozen with nobody able to score again",
                float(bool(dead and not dead["anyone_scores"])),
                True,
            ),
            Measure("Dead ends", "frozen-lap", "lap of the first dead end (games that freeze)", dead and dead["lap"]),
            Measure(
                "Market", "deck-out", "games where the deck runs out", float(extra["deck_out_lap"] is not None), True
            ),
            Measure("Market", "market-left", "cards left face up at the end", extra["market_left"]),
        ]
        for m, machine in enumerate(self.model.machines):
            builds = [b for b in extra["builds"] if b[2] == m]
            owners = {b[1] for b in builds}
            out.append(Measure("Machines: builds per game", machine.id, machine.name, len(builds)))
            share = stats.mean([returns[p] for p in owners]) if owners else None
            out.append(
                Measure("Machines: win share of the players who built it", machine.id, machine.name, share, True)
            )
        return out

    def follows(self, card: str) -> bool:
        """Return True for the market machines (their builds are recorded) and the starter (everyone has one)."""
        return card == self.model.starter.id or any(m.id == card for m in self.model.machines)

    def holders(self, record: dict[str, Any], card: str) -> list[int]:
        """Return the seats that built the machine at least once (every seat for the starter)."""
        players = len(record["returns"])
        if card == self.model.starter.id:
            return list(range(players))
        index = next((i for i, m in enumerate(self.model.machines) if m.id == card), None)
        return sorted({b[1] for b in record["extra"]["builds"] if b[2] == index})


class Recorder:
    """Records builds, points after every lap, the deck running out and the first dead end of one game."""

    def __init__(self, game: Game):
        self.game = game
        self.dead = dead_ends_for(game.tables)
        self.builds: list[list[int]] = []
        self.score_by_round: list[list[int]] = []
        self.dead_end: dict[str, Any] | None = None
        self.deck_out_lap: int | None = None
        self.setup = True

    def after(self, state: State, player: int, action: int) -> None:
        """Note what the action did."""
        n = state.num_players
        t = self.game.tables
        if player >= 0:
            self.setup = False
            if action < t.n_build_actions:
                m, slot = t.decode_build(action)
                lap = (state.turn - 1) // n + 1
                self.builds.append([lap, player, m, slot])
            if state.turn % n == 0:
                self.score_by_round.append(list(state.pts))
        elif player == CHANCE and not state.deck_size and self.deck_out_lap is None:
            self.deck_out_lap = 0 if self.setup else (state.turn - 1) // n + 1
        if self.dead_end is None and state.cur >= 0 and self.dead.is_dead_end(state):
            self.dead_end = {
                "lap": state.lap,
                "turn": state.turn,
                "setup": self.setup,
                "cause": "market empty" if not state.market_mask else "nothing affordable",
                "anyone_scores": self.dead.anyone_scores(state),
            }

    def finish(self, state: State) -> dict[str, Any]:
        """Return the game's facts."""
        return {
            "builds": self.builds,
            "score_by_round": self.score_by_round,
            "dead_end": self.dead_end,
            "deck_out_lap": self.deck_out_lap,
            "market_left": sum(state.market),
            "installed": [[m for m in state.slots(p) if m != EMPTY] for p in range(state.num_players)],
        }


def machines_section(model: PocketFoundry, result: MatchResult) -> Section:
    """Return per machine: how often and when it is built, and the win share with and without it."""
    t = tables_for(model)
    records = result.records
    games = len(records)
    n = result.match.players
    rows, data = [], []
    who = " and ".join(dict.fromkeys(result.bot_names))
    for m, name in enumerate(t.names):
        laps = [b[0] for r in records for b in r["extra"]["builds"] if b[2] == m]
        built_games = sum(1 for r in records if any(b[2] == m for b in r["extra"]["builds"]))
        with_: list[float] = []
        without: list[float] = []
        for r in records:
            owners = {b[1] for b in r["extra"]["builds"] if b[2] == m}
            for seat in range(n):
                (with_ if seat in owners else without).append(r["returns"][seat])
        installed = sum(row.count(m) for r in records for row in r["extra"]["installed"])
        note = "" if with_ else f"never built by {who} bots: 0 of {games * n:,} player-games"
        w, wo = stats.mean(with_), stats.mean(without)
        lo, hi = stats.share_ci(with_) if with_ else (0.0, 0.0)
        rows.append(
            [
                name,
                f"{len(laps) / games:.2f}",
                pct(built_games / games),
                f"{stats.mean(laps):.1f}" if laps else "–",
                f"{installed / games:.2f}",
                pct(w) if with_ else "–",
                interval(lo, hi) if with_ else "–",
                pct(wo) if without else "–",
                f"{100 * (w - wo):+.1f}" if with_ and without else "–",
            ]
        )
        data.append(
            {
                "machine": name,
                "builds_per_game": len(laps) / games,
                "games_built": built_games / games,
                "mean_build_lap": stats.mean(laps) if laps else None,
                "build_laps": dict(sorted(Counter(laps).items())),
                "installed_at_end_per_game": installed / games,
                "win_share_with": w if with_ else None,
                "with_ci95": [lo, hi] if with_ else None,
                "players_with": len(with_),
                "win_share_without": wo if without else None,
                "note": note,
            }
        )
    first = Counter(r["extra"]["builds"][0][2] for r in records if r["extra"]["builds"])
    never = [f"{d['machine']} ({d['note']})" for d in data if d["note"]]
    text = [
        "*With* counts a player who built the machine at least once; *without*, every other player. "
        f"A fair share is {pct(1 / n)}. Deltas mix cause and effect (winners build more), so read them as "
        "leads to playtest, not verdicts.",
        "First build of the game: " + ", ".join(f"{t.names[m]} {pct(c / games)}" for m, c in first.most_common()) + ".",
    ]
    if never:
        text.append("Never built: " + "; ".join(never) + ". They stay in every table and chart.")
    table = Table(
        [
            "Machine",
            "Builds/game",
            "Games built",
            "Mean lap",
            "Installed at end/game",
            "Win share with",
            "95 % CI",
            "Without",
            "Δ (pp)",
        ],
        rows,
    )
    return Section("Machines", "machines", text, [table], data)


def dead_end_section(model: PocketFoundry, result: MatchResult) -> Section:
    """Return how often and when no player could ever build again."""
    records = result.records
    games = len(records)
    dead = [r["extra"]["dead_end"] for r in records if r["extra"]["dead_end"]]
    at_setup = sum(1 for d in dead if d["setup"])
    exact = opening_stall_probability(model)
    lo, hi = stats.wilson(len(dead), games)
    slo, shi = stats.wilson(at_setup, games)
    scoreless = sum(1 for d in dead if not d["anyone_scores"])
    causes = Counter(d["cause"] for d in dead)
    laps = Counter(d["lap"] for d in dead if not d["setup"])
    peak = max(laps.values(), default=1)
    shared = sum(1 for r in records if r["extra"]["dead_end"] and sum(1 for x in r["returns"] if x > 0) > 1)
    text = [
        "A dead end is a position from which no player can ever build again: nobody can afford any face-up "
        "card from any purse their own row could ever reach, so the market and every row stay frozen for the "
        "rest of the game (turns left are not counted).",
        f"Games that reach a dead end: {pct(len(dead) / games)} {interval(lo, hi)}; already at setup: "
        f"{pct(at_setup / games)} {interval(slo, shi)} (exact: {float(exact):.2%} = {exact}).",
        f"In {pct(scoreless / games)} of games nobody could score any more points from the dead end on; "
        f"{pct(shared / games)} of games ended in a dead end with a shared win."
        + (" Causes: " + ", ".join(f"{c} {k}" for k, c in causes.most_common()) + "." if causes else ""),
    ]
    table = Table(
        ["Lap", "Games first stuck", ""],
        [[lap, c, bar(c / peak)] for lap, c in sorted(laps.items())],
        caption="Lap of the first dead end (after setup)",
    )
    return Section(
        "Dead ends",
        "dead_ends",
        text,
        [table] if laps else [],
        {
            "games": games,
            "dead_end_games": len(dead),
            "ci95": [lo, hi],
            "at_setup": at_setup,
            "at_setup_ci95": [slo, shi],
            "exact_setup_probability": float(exact),
            "exact_setup_fraction": str(exact),
            "nobody_scores_after": scoreless,
            "shared_win_in_dead_end": shared,
            "causes": dict(causes),
            "first_lap": dict(sorted(laps.items())),
        },
    )


def market_section(result: MatchResult) -> Section:
    """Return when the deck runs out and what is left in the market at the end."""
    records = result.records
    games = len(records)
    outs = [r["extra"]["deck_out_lap"] for r in records]
    emptied = [o for o in outs if o is not None]
    left = Counter(r["extra"]["market_left"] for r in records)
    text = [
        f"The deck ran out in {pct(len(emptied) / games)} of games"
        + (f", on average in lap {stats.mean(emptied):.1f}" if emptied else "")
        + ". Cards left face up at "
        "the end: " + ", ".join(f"{k}: {pct(c / games)}" for k, c in sorted(left.items())) + "."
    ]
    return Section(
        "Market",
        "market",
        text,
        [],
        {
            "deck_out_games": len(emptied),
            "deck_out_lap": dict(sorted(Counter(emptied).items())),
            "market_left_at_end": dict(sorted(left.items())),
        },
    )
