"""One definition per measure and per method, written into every report that uses them (its Glossary section)."""

from __future__ import annotations

from collections.abc import Iterable

from . import stats
from .report import Section, Table

TERMS: dict[str, str] = {
    "win share": "a player's share of the win in one game: 1 for an outright win, 1/k to each of k tied "
    "winners, 0 otherwise. A seat's (or a bot's) win share is its mean over games; a fair seat's is 1/players.",
    "outright wins": "games a seat won alone (no shared win).",
    "first player": "the player who takes the first turn of the game: seat 1 in Pocket Foundry, the player "
    "drawn at random in Micro-Engine. Its win share against 1/players is the first-player advantage.",
    "first-to-last gap": "the first player's win share minus the last player's (last in turn order), per game; "
    "0 when turn order does not matter.",
    "win share when built": "a card's builders' (players', kept, played) win share: the mean win share over "
    "every player-game in which that player built (kept, played) the card at least once. It counts players, "
    "not games: a game with two builders counts twice. Winners build more, so it mixes cause and effect.",
    "pick rate": "of the decisions at which the card was on offer and the player could pay for it (a legal "
    "choice), the share at which the player chose it.",
    "eventual winner": "the player(s) with a positive win share at the end, by the game's own tie-breaks "
    "(Micro-Engine: longest chain); a shared win averages its winners.",
    "points": "final score as the rulebook counts it (points in Pocket Foundry, VP in Micro-Engine).",
    "winning margin": "the winner's score minus the runner-up's.",
    "decisions": "actions chosen by a player (chance events such as a deal are not counted).",
    "proportion interval": f"95 % {stats.WILSON} interval; the {stats.CLOPPER_PEARSON} interval when there are "
    f"fewer than {stats.SMALL_N} observations. Win shares count tied wins as fractions of a success.",
    "mean interval": f"95 % {stats.STUDENT} interval (n − 1 degrees of freedom).",
    "paired difference": "B − A measured game by game on the same seeds, with the paired t interval of the mean "
    "difference: what the two runs share (the deal) cancels.",
    "unpaired difference": f"B − A over the games (or player-games) where the measure applies, with "
    f"{stats.WELCH} interval (Welch–Satterthwaite degrees of freedom).",
    "Holm": "Holm's step-down correction of the p-values of one table's rows: a row is flagged **differs** only "
    "when its corrected p is below 0.05, so the chance that any row of the table is flagged by luck alone is "
    "at most 5 %.",
    "seed block": "a set of games dealt from seeds derived from (seed, block, game index). The explored block is "
    "the one `--seed` names (the games `simulate` plays); fresh blocks (`--replicate K`) are derived from "
    "a different label, so they never share a game with any explored seed.",
    "replicates": "a difference flagged (Holm) on the explored block that is flagged again, with the same sign, "
    "in every fresh block; **does not replicate** when a fresh block fails to confirm it.",
    "closest to fair": "the swept point whose estimate is nearest the target; its interval is the set of points "
    "that won at least 95 % of 1,000 paired bootstrap resamples of the games (the same game indices drawn at "
    "every point).",
    "adjacent points": "neighbouring values of a swept parameter, compared paired (the same seeds): the step's "
    "effect with its interval, Holm-corrected over the steps.",
    "rating": "an openskill Plackett–Luce rating (μ, σ) from every game's finishing order; the ordinal μ − 3σ "
    "ranks bots conservatively.",
}


def section(terms: Iterable[str]) -> Section:
    """Return the Glossary section defining `terms` (in the order given, each once)."""
    chosen = list(dict.fromkeys(terms))
    rows = [[term, TERMS[term]] for term in chosen]
    return Section(
        "Glossary",
        "glossary",
        ["Every number in this report is defined here, once."],
        [Table(["Term", "Definition"], rows)],
        {term: TERMS[term] for term in chosen},
    )


SIMULATION = (
    "win share",
    "outright wins",
    "first player",
    "win share when built",
    "pick rate",
    "eventual winner",
    "points",
    "winning margin",
    "decisions",
    "proportion interval",
    "mean interval",
    "rating",
)
COMPARISON = (
    "win share",
    "first player",
    "first-to-last gap",
    "win share when built",
    "points",
    "winning margin",
    "decisions",
    "paired difference",
    "unpaired difference",
    "Holm",
    "seed block",
    "replicates",
)
SWEEP = (
    "win share",
    "first player",
    "win share when built",
    "points",
    "proportion interval",
    "mean interval",
    "closest to fair",
    "adjacent points",
    "paired difference",
    "Holm",
    "seed block",
    "replicates",
)
