"""Bot ratings: an openskill Plackett–Luce rating of every bot from the finishing order of every game it played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .report import Section, Table
from .runner import MatchResult


def ranks(returns: Sequence[float]) -> list[int]:
    """Return each seat's finishing rank (1 = best) from its share of the win; tied shares share a rank."""
    return [1 + sum(1 for other in returns if other > mine) for mine in returns]


def rate(results: Sequence[MatchResult]) -> dict[str, dict[str, float]]:
    """Return {bot: {mu, sigma, ordinal, games}} from every game in which at least two different bots played.

    Each seat is a player of its own in the game's update (a bot in two seats meets itself); a bot's new rating
    is the mean of its seats' new ratings. Games of one bot against itself say nothing about it and are skipped."""
    from openskill.models import PlackettLuce  # only when a report is made

    model = PlackettLuce()
    current: dict[str, Any] = {}
    games: dict[str, int] = {}
    for result in results:
        names = result.bot_names
        if len(set(names)) < 2:
            continue
        for name in names:
            current.setdefault(name, model.rating(name=name))
        for record in result.records:
            teams = [[current[name]] for name in names]
            new = model.rate(teams, ranks=[float(x) for x in ranks(record["returns"])])
            by_bot: dict[str, list[Any]] = {}
            for name, (rating,) in zip(names, new):
                by_bot.setdefault(name, []).append(rating)
            for name, seats in by_bot.items():
                mu = sum(r.mu for r in seats) / len(seats)
                sigma = sum(r.sigma for r in seats) / len(seats)
                current[name] = model.rating(mu=mu, sigma=sigma, name=name)
                games[name] = games.get(name, 0) + 1
    return {
        name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma, "games": games.get(name, 0)}
        for name, r in sorted(current.items(), key=lambda item: -(item[1].mu - 3 * item[1].sigma))
    }


def section(by_count: Mapping[int, Sequence[MatchResult]]) -> Section | None:
    """Return the ratings of the bots at each player count (from the matches that mix bots), or None."""
    rows, data = [], []
    for players, results in sorted(by_count.items()):
        for bot, r in rate(results).items():
            rows.append([players, bot, f"{r['mu']:.1f}", f"{r['sigma']:.1f}", f"{r['ordinal']:.1f}", r["games"]])
            data.append({"players": players, "bot": bot, **r})
    if not rows:
        return None
    text = [
        "An openskill Plackett–Luce rating per bot and player count, updated game by game from the finishing "
        "order (ties share a rank), starting from μ = 25, σ = 8.3. Ranked by the ordinal μ − 3σ, a conservative "
        "estimate; games of one bot against itself are left out."
    ]
    return Section(
        "Bot ratings",
        "ratings",
        text,
        [Table(["Players", "Bot", "μ", "σ", "Ordinal (μ − 3σ)", "Games"], rows)],
        {"model": "openskill PlackettLuce", "ratings": data},
    )
