"""Report sections every game gets: seats and the starting player, ties, scores, margins, tempo, skill gap."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from . import stats
from .report import Section, Table, bar, interval, pct
from .runner import MatchResult


def seats(result: MatchResult, turn_order: str) -> Section:
    """Return win shares per seat with 95 % intervals, outright wins and tied wins."""
    n = result.match.players
    games = len(result.records)
    rows, data = [], []
    for seat in range(n):
        shares = [r["returns"][seat] for r in result.records]
        wins = sum(1 for s in shares if s == 1.0)
        ties = sum(1 for s in shares if 0 < s < 1)
        lo, hi = stats.share_ci(shares)
        wlo, whi = stats.wilson(wins, games)
        share = stats.mean(shares)
        rows.append(
            [
                seat + 1,
                result.bot_names[seat],
                pct(share),
                interval(lo, hi),
                pct(wins / games),
                interval(wlo, whi),
                pct(ties / games),
                bar(share * n / 2),
            ]
        )
        data.append(
            {
                "seat": seat + 1,
                "bot": result.bot_names[seat],
                "win_share": share,
                "ci95": [lo, hi],
                "outright_wins": wins,
                "outright_ci95": [wlo, whi],
                "tied_wins": ties,
            }
        )
    tie_sizes = Counter(sum(1 for x in r["returns"] if x > 0) for r in result.records)
    shared = sum(c for k, c in tie_sizes.items() if k > 1)
    text = [
        f"{games} games. {turn_order} A win shared by k tied leaders counts 1/k for each. A fair seat wins {pct(1 / n)}.",
        f"Shared wins: {pct(shared / games)} of games"
        + (
            " (" + ", ".join(f"{k}-way {pct(c / games)}" for k, c in sorted(tie_sizes.items()) if k > 1) + ")"
            if shared
            else ""
        )
        + ".",
    ]
    method = stats.proportion_method(games)
    table = Table(
        ["Seat", "Bot", "Win share", "95 % CI", "Outright wins", "95 % CI", "Tied wins", ""],
        rows,
        caption=f"Intervals: {method} (win shares count a k-way tie as 1/k of a win).",
    )
    return Section(
        "Seats and ties",
        "seats",
        text,
        [table],
        {
            "games": games,
            "seats": data,
            "shared_win_rate": shared / games,
            "tie_sizes": {str(k): c for k, c in sorted(tie_sizes.items())},
            "interval": method,
        },
    )


def _random_first(result: MatchResult) -> bool:
    """Return True when the game drew its first player (the recorder's `first`), not seat 1."""
    return bool(result.records) and "first" in result.records[0].get("extra", {})


def starting_player(result: MatchResult) -> Section:
    """Return the first starting player's advantage over a fair share, with its interval.

    A game whose first player is random records it as `first` in the recorder's facts; else seat 1 starts."""
    n = result.match.players
    shares = [r["returns"][r.get("extra", {}).get("first", 0)] for r in result.records]
    share = stats.mean(shares)
    lo, hi = stats.share_ci(shares)
    same = len(set(result.match.bots)) == 1
    verdict = "no detectable advantage" if lo <= 1 / n <= hi else "an advantage" if lo > 1 / n else "a disadvantage"
    who = "The player drawn to go first" if _random_first(result) else "The player who starts lap 1"
    text = [f"{who} wins {pct(share)} {interval(lo, hi)} against a fair {pct(1 / n)}: {verdict} at 95 % confidence."]
    if not same:
        text.append("The seats hold different bots, so this mixes seat order with bot strength.")
    return Section(
        "Starting player",
        "starting_player",
        text,
        [],
        {"first_seat_share": share, "ci95": [lo, hi], "fair": 1 / n, "identical_bots": same},
    )


def scores(result: MatchResult) -> Section:
    """Return score distributions, the winner's score and the winning margin."""
    all_scores = [s for r in result.records for s in r["scores"]]
    winners = [max(r["scores"]) for r in result.records]
    margins = [_margin(r["scores"]) for r in result.records]
    zero_wins = sum(1 for w in winners if w == 0)
    games = len(result.records)
    keys = ["mean", "sd", "min", "p10", "p25", "p50", "p75", "p90", "max"]
    rows = []
    summaries = {}
    for label, values in (("every player", all_scores), ("winner", winners), ("winning margin", margins)):
        s = stats.summary(values)
        summaries[label] = s
        rows.append([label] + [f"{s[k]:.1f}" if k in ("mean", "sd") else f"{s[k]:g}" for k in keys])
    per_seat = []
    for seat in range(result.match.players):
        s = stats.summary([r["scores"][seat] for r in result.records])
        per_seat.append(s)
        rows.append(
            [f"seat {seat + 1} ({result.bot_names[seat]})"]
            + [f"{s[k]:.1f}" if k in ("mean", "sd") else f"{s[k]:g}" for k in keys]
        )
    table = Table(["Points", "Mean", "SD", "Min", "P10", "P25", "Median", "P75", "P90", "Max"], rows)
    width = 5 if max(all_scores, default=0) > 40 else 2
    hist = stats.histogram(all_scores, width)
    peak = max((c for _, _, c in hist), default=1) or 1
    hist_table = Table(
        ["Final points", "Players", "Share", ""],
        [[f"{lo}–{hi}", c, pct(c / len(all_scores)), bar(c / peak)] for lo, hi, c in hist],
        caption="Distribution of every player's final points",
    )
    mhist = stats.histogram([int(m) for m in margins], 1 if max(margins, default=0) <= 20 else 3)
    mpeak = max((c for _, _, c in mhist), default=1) or 1
    margin_table = Table(
        ["Margin (1st − 2nd)", "Games", "Share", ""],
        [[f"{lo}" if lo == hi else f"{lo}–{hi}", c, pct(c / games), bar(c / mpeak)] for lo, hi, c in mhist],
        caption="Winning margins",
    )
    text = [f"Games won with 0 points (nobody scored): {pct(zero_wins / games)}."]
    return Section(
        "Scores and margins",
        "scores",
        text,
        [table, hist_table, margin_table],
        {"summary": summaries, "per_seat": per_seat, "zero_point_wins": zero_wins, "histogram": hist, "margins": mhist},
    )


def length(result: MatchResult) -> Section:
    """Return how long games are: player decisions per game, and turns when the game's recorder counts them."""
    measures = {"decisions": [r.get("decisions", 0) for r in result.records]}
    if result.records and all("turns" in r["extra"] for r in result.records):
        measures["turns"] = [r["extra"]["turns"] for r in result.records]
    rows: list[list[str]] = []
    data: dict[str, dict[str, Any]] = {}
    for name, values in measures.items():
        s = stats.summary(values)
        width = max(1, -(-(int(s["max"]) - int(s["min"]) + 1) // 24))  # at most about 24 bins
        data[name] = {"summary": s, "histogram": stats.histogram(values, width)}
        rows.append(
            [
                f"{name} per game",
                f"{s['mean']:.1f}",
                f"{s['sd']:.1f}",
                f"{s['min']:g}",
                f"{s['p50']:g}",
                f"{s['max']:g}",
            ]
        )
    text = [
        "A decision is one action chosen by a player (chance events such as dealing a card are not counted)"
        + ("; a turn is one player's turn." if "turns" in measures else ".")
    ]
    fixed = [name for name, d in data.items() if d["summary"]["min"] == d["summary"]["max"]]
    text += [f"Every game lasted exactly {data[name]['summary']['min']:g} {name}." for name in fixed]
    return Section(
        "Game length",
        "length",
        text,
        [Table(["Measure", "Mean", "SD", "Min", "Median", "Max"], rows)],
        data,
    )


def tempo(result: MatchResult, round_name: str = "lap") -> Section | None:
    """Return mean points after each round and gained in it, from the records' `score_by_round`."""
    rounds = [r["extra"].get("score_by_round") for r in result.records]
    if not rounds or any(x is None for x in rounds):
        return None
    n_rounds = max(len(x) for x in rounds)
    rows, data = [], []
    prev_all = prev_win = 0.0
    for k in range(n_rounds):
        everyone = [s for game in rounds if k < len(game) for s in game[k]]
        leaders = [max(game[k]) for game in rounds if k < len(game)]
        winners = [_winners_points(game[k], r["returns"]) for game, r in zip(rounds, result.records) if k < len(game)]
        m_all, m_win = stats.mean(everyone), stats.mean(winners)
        rows.append(
            [
                k + 1,
                f"{m_all:.2f}",
                f"{m_all - prev_all:.2f}",
                f"{m_win:.2f}",
                f"{m_win - prev_win:.2f}",
                f"{stats.mean(leaders):.2f}",
            ]
        )
        data.append(
            {
                "round": k + 1,
                "mean": m_all,
                "gain": m_all - prev_all,
                "eventual_winner": m_win,
                "leader": stats.mean(leaders),
            }
        )
        prev_all, prev_win = m_all, m_win
    Round = round_name.capitalize()
    table = Table(
        [Round, "Mean points", f"Gained this {round_name}", "Eventual winner", "Winner gained", "Leader at the time"],
        rows,
    )
    return Section(
        f"Points per {round_name}",
        "tempo",
        [
            f"Mean points at the end of each {round_name}. The eventual winner is whoever the game's result "
            "names (its tie-breaks included); a shared win averages its winners."
        ],
        [table],
        data,
    )


def skill_gap(results: Sequence[MatchResult], strong: str, weak: str) -> Section:
    """Return the strong bot's win share against weak bots, with the strong bot in every seat in turn."""
    shares, strong_scores, weak_scores, rows = [], [], [], []
    n = results[0].match.players
    for result in results:
        seat = result.match.bots.index(strong)
        s = [r["returns"][seat] for r in result.records]
        shares += s
        strong_scores += [r["scores"][seat] for r in result.records]
        weak_scores += [x for r in result.records for i, x in enumerate(r["scores"]) if i != seat]
        lo, hi = stats.share_ci(s)
        rows.append([seat + 1, len(s), pct(stats.mean(s)), interval(lo, hi)])
    share = stats.mean(shares)
    lo, hi = stats.share_ci(shares)
    text = [
        f"One {strong} bot against {n - 1} {weak} bots, seated in each seat for an equal number of games: "
        f"it wins {pct(share)} {interval(lo, hi)} of the time (a fair share is {pct(1 / n)}), scoring "
        f"{stats.mean(strong_scores):.1f} points on average against {stats.mean(weak_scores):.1f}.",
        "A large gap means skill matters; a win rate near the fair share would mean luck decides.",
    ]
    return Section(
        f"Skill gap: {strong} against {weak}",
        "skill_gap",
        text,
        [Table(["Strong bot's seat", "Games", "Win share", "95 % CI"], rows)],
        {
            "strong": strong,
            "weak": weak,
            "win_share": share,
            "ci95": [lo, hi],
            "fair": 1 / n,
            "games": len(shares),
            "mean_score_strong": stats.mean(strong_scores),
            "mean_score_weak": stats.mean(weak_scores),
        },
    )


def _margin(scores: Sequence[float]) -> float:
    ordered = sorted(scores, reverse=True)
    return ordered[0] - ordered[1] if len(ordered) > 1 else ordered[0]


def _winners_points(points: Sequence[float], returns: Sequence[float]) -> float:
    """Return the points of the game's eventual winner(s), by the game's own result (its tie-breaks
    included): the mean over the seats with a share of the win."""
    won = [points[i] for i, share in enumerate(returns) if share > 0]
    return sum(won) / len(won) if won else max(points)


def player_counts(by_count: dict[int, MatchResult]) -> Section:
    """Return the first player's win share at every player count played, against each count's fair share."""
    rows, data = [], []
    for players, result in sorted(by_count.items()):
        shares = [r["returns"][r.get("extra", {}).get("first", 0)] for r in result.records]
        share = stats.mean(shares)
        lo, hi = stats.share_ci(shares)
        fair = 1 / players
        verdict = "none detected" if lo <= fair <= hi else "an advantage" if lo > fair else "a disadvantage"
        rows.append(
            [
                players,
                len(shares),
                ", ".join(dict.fromkeys(result.bot_names)),
                pct(share),
                interval(lo, hi),
                pct(fair),
                f"{100 * (share - fair):+.1f}",
                verdict,
            ]
        )
        data.append(
            {
                "players": players,
                "games": len(shares),
                "bots": list(result.bot_names),
                "first_share": share,
                "ci95": [lo, hi],
                "fair": fair,
                "advantage": share - fair,
                "advantage_ci95": [lo - fair, hi - fair],
            }
        )
    text = [
        "The first player's win share at each player count, every seat played by the same bot, against that "
        f"count's fair share; intervals: {stats.WILSON} ({stats.CLOPPER_PEARSON} below {stats.SMALL_N} games). "
        "The main line-up's count uses its games; the others play their own seeded games."
    ]
    table = Table(
        ["Players", "Games", "Bots", "First player's share", "95 % CI", "Fair", "Advantage (pp)", "At 95 %"], rows
    )
    return Section("First player at every player count", "player_counts", text, [table], {"counts": data})
