"""Run a simulated playtest (a main line-up plus the skill-gap match) and assemble the designer report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from . import glossary, ratings, summary
from .plugin import Plugin
from .report import Document, Section
from .runner import Match, MatchResult, run_matches
from .tasks import Executor


@dataclass
class Simulation:
    """The report and the matches behind it."""

    document: Document
    main: MatchResult
    skill: list[MatchResult]
    others: list[MatchResult] = field(default_factory=list)  # other player counts: first player, skill gap

    @property
    def games(self) -> int:
        """Return the number of games played."""
        return len(self.main.records) + sum(len(r.records) for r in (*self.skill, *self.others))

    @property
    def matches(self) -> list[MatchResult]:
        """Return every match, the main line-up first."""
        return [self.main, *self.skill, *self.others]


def match_sections(plugin: Plugin, main: MatchResult) -> list[Section]:
    """Return the report sections of one match: the shared ones, then the game's own."""
    sections = [
        summary.seats(main, plugin.turn_order),
        summary.starting_player(main),
        summary.scores(main),
        summary.length(main),
    ]
    tempo = summary.tempo(main, plugin.round_name)
    if tempo is not None:
        sections.append(tempo)
    return sections + plugin.sections(main)


def simulate(
    plugin: Plugin,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    skill_games: int | None = None,
    executor: Executor | None = None,
    log: bool = False,
    count_games: int = 0,
) -> Simulation:
    """Play `games` games with `bots` (one spec per seat) and the skill-gap match; return the report.

    `executor` (local processes or a Dask cluster) overrides `jobs`; the report is the same either way. With
    `log`, every record holds the game's actions (for `gamelog`). `count_games` > 0 also plays that many games
    at every other supported player count (and at this one when the line-up mixes bots), every seat the same bot,
    and as many of the skill-gap match there: the first player and the bot ratings at every count."""
    matches = [Match("main", players, tuple(bots), games, seed)]
    skill_games = games if skill_games is None else skill_games
    if skill_games > 0:
        matches += _skill_matches(plugin, players, skill_games, seed, "skill")
    uniform = bots[0] if len(set(bots)) == 1 else plugin.check_spec(plugin.default_bots.split(",")[0])
    counts = [c for c in plugin.players if c != players or len(set(bots)) > 1] if count_games > 0 else []
    others = []
    for c in counts:
        others.append(Match(f"count-{c}", c, (uniform,) * c, count_games, seed))
        if c != players:
            others += _skill_matches(plugin, c, count_games, seed, f"skill-{c}p")
    main, *rest = run_matches(plugin, [*matches, *others], jobs, executor, label=f"simulate {plugin.game_id}", log=log)
    skill, extra = rest[: len(matches) - 1], rest[len(matches) - 1 :]
    sections = match_sections(plugin, main)
    if skill:
        sections.append(summary.skill_gap(skill, plugin.strong_bot, "random"))
    if counts:
        firsts = {r.match.players: r for r in extra if r.match.label.startswith("count-")}
        if players not in firsts:
            firsts[players] = main
        sections.append(summary.player_counts(firsts))
    by_count: dict[int, list[MatchResult]] = {}  # the matches that mix bots are rated, at each player count
    for result in [main, *skill, *extra]:
        by_count.setdefault(result.match.players, []).append(result)
    rated = ratings.section(by_count)
    if rated is not None:
        sections.append(rated)
    sections.append(glossary.section(glossary.SIMULATION))
    lineup = ", ".join(main.bot_names)
    meta = {
        "game": plugin.game_id,
        "players": players,
        "bots (seat 1 first)": lineup,
        "games": games,
        "seed": seed,
        "skill-gap games": sum(len(r.records) for r in skill),
        "games at other player counts": sum(len(r.records) for r in extra),
    }
    intro = [
        f"Simulated playtest of {plugin.game_id}: {games} seeded games, {players} players ({lineup}).",
        "Win rates describe these bots, not people: read them as what the cards allow, and compare "
        "line-ups rather than trusting one number.",
    ]
    document = Document(f"{plugin.game_id}: simulated playtest", meta, sections, intro)
    return Simulation(document, main, skill, extra)


def _skill_matches(plugin: Plugin, players: int, games: int, seed: int, label: str) -> list[Match]:
    """Return the skill-gap match at `players`: the strong bot against random bots, in every seat equally often."""
    per_seat = -(-games // players)
    return [
        Match(
            f"{label}-{seat + 1}",
            players,
            tuple(plugin.strong_bot if i == seat else "random" for i in range(players)),
            per_seat,
            seed,
        )
        for seat in range(players)
    ]
