"""Run a simulated playtest (a main line-up plus the skill-gap match) and assemble the designer report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import summary
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

    @property
    def games(self) -> int:
        """Return the number of games played."""
        return len(self.main.records) + sum(len(r.records) for r in self.skill)


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
) -> Simulation:
    """Play `games` games with `bots` (one spec per seat) and the skill-gap match; return the report.

    `executor` (local processes or a Dask cluster) overrides `jobs`; the report is the same either way. With
    `log`, every record holds the game's actions (for `gamelog`)."""
    matches = [Match("main", players, tuple(bots), games, seed)]
    skill_games = games if skill_games is None else skill_games
    if skill_games > 0:
        per_seat = -(-skill_games // players)  # the strong bot sits in every seat equally often
        for seat in range(players):
            seats = tuple(plugin.strong_bot if i == seat else "random" for i in range(players))
            matches.append(Match(f"skill-{seat + 1}", players, seats, per_seat, seed))
    main, *skill = run_matches(plugin, matches, jobs, executor, label=f"simulate {plugin.game_id}", log=log)
    sections = match_sections(plugin, main)
    if skill:
        sections.append(summary.skill_gap(skill, plugin.strong_bot, "random"))
    lineup = ", ".join(main.bot_names)
    meta = {
        "game": plugin.game_id,
        "players": players,
        "bots (seat 1 first)": lineup,
        "games": games,
        "seed": seed,
        "skill-gap games": sum(len(r.records) for r in skill),
    }
    intro = [
        f"Simulated playtest of {plugin.game_id}: {games} seeded games, {players} players ({lineup}).",
        "Win rates describe these bots, not people: read them as what the cards allow, and compare "
        "line-ups rather than trusting one number.",
    ]
    document = Document(f"{plugin.game_id}: simulated playtest", meta, sections, intro)
    return Simulation(document, main, skill)
