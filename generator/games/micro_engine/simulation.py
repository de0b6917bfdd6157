"""Micro-Engine's simulation hooks: bots by name, a per-game recorder and the report's own sections."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...sdk import (
    BotSpecError,
    MatchResult,
    Measure,
    RandomBot,
    Section,
    Table,
    bar,
    did_you_mean,
    interval,
    pct,
    stats,
)
from .bots import HeuristicBot, RolloutBot, value_model
from .game import MicroEngineGame
from .model import Card, Core, MicroEngine, Patent
from .record import Recorder as GameRecorder

if TYPE_CHECKING:
    from ...sdk import Bot
    from .engine import State

BOTS = {
    "random": "a uniformly random legal action",
    "heuristic": "scores each play by VP, effects, Patent progress and the cards its Cost throws away",
    "heuristic-random-core": "the heuristic bot, keeping a random Core (to measure Cores without selection)",
    "rollout": "the strong bot: for the heuristic's choice and 2 others, deals the hidden cards 4 ways, plays each "
    "3 turns on with heuristic players and values where it stops with a fit of the VP still to come; about 0.3 CPU s "
    "per 2-player game (the fit: about 2 s per process)",
    "rollout-deep": "the former strong bot: 12 deals, each played to the end of the game; about 10x the CPU of "
    "rollout, and no stronger",
}


@dataclass
class MicroEngineSim:
    """Simulation plugin for one Micro-Engine edition and variant (picklable: plain model and flags)."""

    model: MicroEngine
    game_id: str = "micro-engine"
    quick: bool = False
    travel: bool = False
    strong_bot: str = "heuristic"  # the skill-gap match plays it against random bots; rollout is too slow
    default_bots: str = "heuristic"
    round_name: str = "round"
    turn_order: str = "The first player is drawn at random each game (see the starting player below)."

    @property
    def players(self) -> tuple[int, ...]:
        """Return the supported player counts."""
        return self.model.players

    @property
    def default_players(self) -> int:
        """Return the edition's default player count."""
        return self.model.default_players

    def new_game(self, players: int) -> MicroEngineGame:
        """Return the engine for `players` seats in this variant."""
        return MicroEngineGame(self.model, players, self.quick, self.travel)

    def bot_help(self) -> str:
        """Return one line per bot."""
        return "\n".join(f"  {name}: {about}" for name, about in BOTS.items())

    def check_spec(self, spec: str) -> str:
        """Return the canonical bot name for `spec`, or raise BotSpecError with a hint."""
        name = spec.strip().casefold()
        if name in BOTS:
            return name
        hint = did_you_mean(name, BOTS)
        raise BotSpecError(f"unknown bot '{spec}'" + (f"; {hint}" if hint else "") + f" (bots: {', '.join(BOTS)})")

    def make_bot(self, spec: str, seat: int) -> Bot[State]:
        """Return a bot for `spec`."""
        name = self.check_spec(spec)
        if name == "random":
            return RandomBot(seat)
        if name == "heuristic":
            return HeuristicBot(seat)
        if name == "heuristic-random-core":
            bot = HeuristicBot(seat, random_core=True)
            bot.name = name
            return bot
        if name == "rollout-deep":
            return RolloutBot.deep(seat)
        return RolloutBot(seat)

    def prepare(self, specs: Sequence[str]) -> None:
        """Fit the rollout bot's leaf value once, before worker processes start (other card values are
        computed per process on first use)."""
        if any(self.check_spec(spec) == "rollout" for spec in specs):
            value_model(self.new_game(len(specs)).tables)

    def recorder(self, game: MicroEngineGame) -> Recorder:
        """Return a fresh recorder."""
        return Recorder(game)

    def sections(self, main: MatchResult) -> list[Section]:
        """Return the Micro-Engine sections: first player, Patents, chains, flow, cards, Cores, VP sources."""
        return [
            first_player_section(main),
            patents_section(self.model, main),
            chains_section(main),
            flow_section(main),
            cards_section(self.model, main),
            cores_section(main, self.model, self.travel),
            sources_section(main),
        ]

    def measures(self, record: dict[str, Any]) -> list[Measure]:
        """Return one game's flow, Patent, per-card, per-Core and VP-source numbers, keyed by id (for `compare`)."""
        extra, returns, scores = record["extra"], record["returns"], record["scores"]
        n = len(returns)
        mine = stats.mean  # per player, averaged over the table
        out = [
            Measure("Flow", "turns", "turns per game", extra["turns"]),
            Measure("Flow", "research", "Research actions per player", mine(extra["research"])),
            Measure("Flow", "calibrations", "Calibrations per player", mine(extra["calibrations"])),
            Measure("Flow", "limit-hits", "hand-limit discards per player", mine(extra["limit_hits"])),
            Measure("Flow", "hand-at-end", "cards in hand at the end", mine(extra["hands"])),
            Measure("Flow", "reshuffles", "reshuffles per game", extra["reshuffles"]),
            Measure("Flow", "dry-draws", "games where a draw found no card", float(bool(extra["dry_draws"])), True),
            Measure("Chains", "chain", "Parts in a chain at the end", mine(extra["chains"])),
            Measure("Chains", "upgrades", "Upgrades in play at the end", mine(extra["upgrades"])),
            Measure("Patents", "claims", "Patents claimed per game", sum(1 for c in extra["claims"] if not c[3])),
            Measure("Patents", "licenses", "Licenses taken per game", sum(1 for c in extra["claims"] if c[3])),
        ]
        for key in ("parts", "upgrades", "core", "patents", "licenses", "end_game"):
            value: float | None = mine([b[key] for b in extra["breakdown"]])
            out.append(Measure("VP sources (per player)", key, key.replace("_", " "), value))
        for card in self.model.cards:
            out.append(Measure("Cards: plays per game", card.id, card.name, len(extra["plays"].get(card.id, ()))))
        for core in self.model.cores:
            held = [returns[p] for p in range(n) if extra["cores"][p] == core.id]
            value = mine(held) if held else None
            out.append(Measure("Cores: win share of the player who kept it", core.id, core.name, value, True))
        order = [returns[(extra["first"] + k) % n] for k in range(n)]
        for k, share in enumerate(order):
            out.append(
                Measure("Turn order: win share", f"position-{k + 1}", f"position {k + 1} in turn order", share, True)
            )
        out.append(Measure("Turn order: mean VP", "first", "first player's VP", scores[extra["first"]]))
        return out

    def follows(self, card: str) -> bool:
        """Return True for every Workshop card, Core and Patent (the recorder notes who played, kept or claimed it)."""
        items: tuple[Card | Core | Patent, ...] = (*self.model.cards, *self.model.cores, *self.model.patents)
        return any(item.id == card for item in items)

    def holders(self, record: dict[str, Any], card: str) -> list[int]:
        """Return the seats that played the card, kept the Core or claimed the Patent in one game."""
        extra = record["extra"]
        seats = set(extra["played_by"].get(card, ()))
        seats |= {p for p, core in enumerate(extra["cores"]) if core == card}
        seats |= {claim[1] for claim in extra["claims"] if claim[2] == card}
        return sorted(seats)


class Recorder(GameRecorder):
    """The game's recorder, plus who played each card and which Cores each player was offered."""

    def finish(self, state: State) -> dict[str, Any]:
        """Return the game's facts with `played_by` (card id -> seats) and `offers` (per seat, Core ids)."""
        facts = super().finish(state)
        T = state.tables
        played: dict[str, list[int]] = {}
        for _turn, p, t, _paid in state.stats.plays:
            seats = played.setdefault(T.ids[t], [])
            if p not in seats:
                seats.append(p)
        facts["played_by"] = played
        facts["offers"] = [[T.ids[T.T + c] for c in offer] for offer in state.core_offers]
        return facts


def _who(result: MatchResult) -> str:
    return " and ".join(dict.fromkeys(result.bot_names)) + " bots"


def _records(result: MatchResult) -> list[dict[str, Any]]:
    return result.records


def first_player_section(result: MatchResult) -> Section:
    """Return the random first player's share and the mean score by position in turn order."""
    n = result.match.players
    recs = _records(result)
    shares = [r["returns"][r["extra"]["first"]] for r in recs]
    lo, hi = stats.share_ci(shares)
    order = [[r["scores"][(r["extra"]["first"] + k) % n] for r in recs] for k in range(n)]
    rows = [
        [k + 1, f"{stats.mean(o):.1f}", pct(stats.mean([r["returns"][(r["extra"]["first"] + k) % n] for r in recs]))]
        for k, o in enumerate(order)
    ]
    text = [
        f"The first player is random (Setup 5), so seats do not say who went first. By position in turn "
        f"order: the first player won {pct(stats.mean(shares))} {interval(lo, hi)} against a fair {pct(1 / n)}."
    ]
    return Section(
        "Turn order",
        "turn_order",
        text,
        [Table(["Position in turn order", "Mean VP", "Win share"], rows)],
        {
            "first_share": stats.mean(shares),
            "ci95": [lo, hi],
            "fair": 1 / n,
            "mean_vp_by_position": [stats.mean(o) for o in order],
        },
    )


def patents_section(model: MicroEngine, result: MatchResult) -> Section:
    """Return, per Patent: how often it was revealed, claimed and licensed, and in which round."""
    recs = _records(result)
    n = result.match.players
    shown = Counter(pid for r in recs for pid in r["extra"]["patents"])
    owned: Counter[str] = Counter()
    lic: Counter[str] = Counter()
    rounds: dict[str, list[int]] = defaultdict(list)
    lrounds: dict[str, list[int]] = defaultdict(list)
    for r in recs:
        for rnd, _p, pid, is_license in r["extra"]["claims"]:
            (lic if is_license else owned)[pid] += 1
            (lrounds if is_license else rounds)[pid].append(rnd)
    rows, data = [], []
    for patent in model.patents:
        pid = patent.id
        k = shown[pid]
        if not k:
            rows.append([patent.name, patent.vp, 0, "–", "–", "–", "–"])
            continue
        rows.append(
            [
                patent.name,
                patent.vp,
                k,
                pct(owned[pid] / k),
                pct(lic[pid] / k) if n >= 3 else "–",
                f"{stats.mean(rounds[pid]):.1f}" if rounds[pid] else "–",
                f"{stats.mean(lrounds[pid]):.1f}" if lrounds[pid] else "–",
            ]
        )
        data.append(
            {
                "patent": pid,
                "revealed": k,
                "claim_rate": owned[pid] / k,
                "license_rate": lic[pid] / k,
                "mean_claim_round": stats.mean(rounds[pid]),
                "mean_license_round": stats.mean(lrounds[pid]),
            }
        )
    never = [p.name for p in model.patents if shown[p.id] and not owned[p.id]]
    text = [
        f"Claims per game: {stats.mean([sum(1 for c in r['extra']['claims'] if not c[3]) for r in recs]):.2f} "
        f"Patents and {stats.mean([sum(1 for c in r['extra']['claims'] if c[3]) for r in recs]):.2f} Licenses "
        f"({n + model.rules.extra_patents} Patents revealed per game)."
    ]
    if never:
        text.append("Never claimed when revealed: " + ", ".join(never) + ".")
    return Section(
        "Patents and Licenses",
        "patents",
        text,
        [Table(["Patent", "VP", "Revealed", "Claimed", "Licensed", "Claim round", "License round"], rows)],
        data,
    )


def chains_section(result: MatchResult) -> Section:
    """Return the distribution of final chain lengths, Upgrades and wildcard links."""
    recs = _records(result)
    chains = [c for r in recs for c in r["extra"]["chains"]]
    count = Counter(chains)
    peak = max(count.values(), default=1)
    rows = [[length, c, pct(c / len(chains)), bar(c / peak)] for length, c in sorted(count.items())]
    winners = [r["extra"]["chains"][w] for r in recs for w in r["extra"]["winners"]]
    ups = [u for r in recs for u in r["extra"]["upgrades"]]
    text = [
        f"Final chain: {stats.mean(chains):.2f} Parts on average (winners {stats.mean(winners):.2f}); "
        f"{stats.mean(ups):.2f} Upgrades in play; {stats.mean([r['extra']['wild_links'] for r in recs]):.2f} "
        f"links per game made through an any-Input effect or an open end."
    ]
    return Section(
        "Chains",
        "chains",
        text,
        [Table(["Chain length", "Players", "Share", ""], rows)],
        {
            "mean": stats.mean(chains),
            "winners": stats.mean(winners),
            "upgrades": stats.mean(ups),
            "histogram": dict(sorted(count.items())),
        },
    )


def flow_section(result: MatchResult) -> Section:
    """Return game length, the hand limit, Research, Calibrations, reshuffles and an empty deck."""
    recs = _records(result)
    n = result.match.players
    rows = [
        ["turns per game", f"{stats.mean([r['extra']['turns'] for r in recs]):.1f}"],
        ["decisions per game", f"{stats.mean([r['extra']['decisions'] for r in recs]):.1f}"],
        ["hand-limit discards per player", f"{stats.mean([x for r in recs for x in r['extra']['limit_hits']]):.2f}"],
        ["cards in hand at the end", f"{stats.mean([x for r in recs for x in r['extra']['hands']]):.2f}"],
        ["Research actions per player", f"{stats.mean([x for r in recs for x in r['extra']['research']]):.2f}"],
        ["Calibrations per player", f"{stats.mean([x for r in recs for x in r['extra']['calibrations']]):.2f}"],
        ["reshuffles per game", f"{stats.mean([r['extra']['reshuffles'] for r in recs]):.2f}"],
        [
            "games where the deck and discard ran dry",
            pct(stats.mean([1.0 if r["extra"]["dry_draws"] else 0.0 for r in recs])),
        ],
    ]
    return Section(
        "Game flow",
        "flow",
        [f"{len(recs)} games of {n} players."],
        [Table(["Measure", "Value"], rows)],
        {row[0]: row[1] for row in rows},
    )


def cards_section(model: MicroEngine, result: MatchResult) -> Section:
    """Return per card type: plays per copy per game, first round played, how often it was playable."""
    recs = _records(result)
    games = len(recs)
    plays: Counter[str] = Counter()
    held: Counter[str] = Counter()
    legal: Counter[str] = Counter()
    first: dict[str, list[int]] = defaultdict(list)
    for r in recs:
        for cid, rounds in r["extra"]["plays"].items():
            plays[cid] += len(rounds)
            first[cid].append(min(rounds))
        for cid, k in r["extra"]["held"].items():
            held[cid] += k
        for cid, k in r["extra"]["legal"].items():
            legal[cid] += k
    n = result.match.players
    rows, data = [], []
    for c in sorted(model.cards, key=lambda c: plays[c.id] / c.copies):
        rate = plays[c.id] / c.copies / games
        playable = legal[c.id] / held[c.id] if held[c.id] else 0.0
        with_ = [r["returns"][p] for r in recs for p in r["extra"]["played_by"].get(c.id, ())]
        lo, hi = stats.share_ci(with_) if with_ else (0.0, 0.0)
        if with_:
            note = ""
        elif held[c.id]:
            note = f"never played by {_who(result)}: held {held[c.id]:,} times in {games:,} games"
        else:
            note = f"never drawn by {_who(result)} in {games:,} games"
        rows.append(
            [
                c.name,
                c.kind,
                c.copies,
                f"{rate:.2f}",
                f"{stats.mean(first[c.id]):.1f}" if first[c.id] else "–",
                pct(playable, 0) if held[c.id] else "–",
                pct(stats.mean(with_)) if with_ else "–",
                interval(lo, hi) if with_ else note,
            ]
        )
        data.append(
            {
                "card": c.id,
                "name": c.name,
                "plays_per_copy_per_game": rate,
                "first_round": stats.mean(first[c.id]),
                "playable_when_held": playable,
                "players_with": len(with_),
                "win_share_with": stats.mean(with_) if with_ else None,
                "with_ci95": [lo, hi] if with_ else None,
                "note": note,
            }
        )
    dead = [c.name for c in model.cards if held[c.id] and not legal[c.id]]
    unplayed = [c.name for c in model.cards if not plays[c.id]]
    text = [
        "Rarest plays first. *Playable when held*: of the Play phases that began with the card in hand, the "
        "share in which it could legally be played. *Win share when played*: the share of the win of "
        f"players who played the card at least once (a fair share is {pct(1 / n)}); winners play more cards, "
        "so read it as a lead, not a verdict.",
        "Dead cards (held but never playable): " + (", ".join(dead) if dead else "none") + ". "
        "Never played: " + (", ".join(unplayed) if unplayed else "none") + ".",
    ]
    return Section(
        "Cards",
        "cards",
        text,
        [
            Table(
                [
                    "Card",
                    "Kind",
                    "Copies",
                    "Plays per copy per game",
                    "First played (round)",
                    "Playable when held",
                    "Win share when played",
                    "95 % CI",
                ],
                rows,
            )
        ],
        {"cards": data, "dead": dead, "never_played": unplayed},
    )


def cores_section(result: MatchResult, model: MicroEngine | None = None, travel: bool = False) -> Section:
    """Return every Core: how often it was offered and kept, its win share and mean VP when kept, or why not."""
    recs = _records(result)
    n = result.match.players
    games = len(recs)
    shares, vps = defaultdict(list), defaultdict(list)
    offered: Counter[str] = Counter()
    for r in recs:
        for p, core in enumerate(r["extra"]["cores"]):
            shares[core].append(r["returns"][p])
            vps[core].append(r["scores"][p])
        for offer in r["extra"].get("offers", ()):
            offered.update(offer)
    known = [(c.id, c.name) for c in model.cores] if model else [(c, c) for c in shares]
    pool = {c.id for c in model.cores_for(travel=travel)} if model else set(shares)
    rows, data = [], []
    for core, name in sorted(known, key=lambda c: (-stats.mean(shares[c[0]]) if shares[c[0]] else 1, c[1])):
        kept = shares[core]
        lo, hi = stats.share_ci(kept) if kept else (0.0, 0.0)
        if kept:
            note = ""
        elif core not in pool:
            note = "not in this variant's Cores"
        elif offered[core]:
            note = (
                f"never kept by {_who(result)}: offered {offered[core]:,} times, kept 0 of {games * n:,} player-games"
            )
        else:
            note = f"never kept by {_who(result)}: 0 of {games * n:,} player-games"
        rows.append(
            [
                name,
                offered[core] if offered else "–",
                len(kept),
                pct(stats.mean(kept)) if kept else "–",
                interval(lo, hi) if kept else note,
                f"{stats.mean(vps[core]):.1f}" if kept else "–",
            ]
        )
        data.append(
            {
                "core": core,
                "name": name,
                "offered": offered[core],
                "kept": len(kept),
                "win_share": stats.mean(kept) if kept else None,
                "ci95": [lo, hi] if kept else None,
                "mean_vp": stats.mean(vps[core]) if kept else None,
                "note": note,
            }
        )
    text = [
        f"A fair Core wins {pct(1 / n)}. The bots choose their Core, so a Core kept often was offered "
        "beside a weaker one; bot `heuristic-random-core` keeps Cores at random for a cleaner comparison."
    ]
    never = [f"{d['name']} ({d['note']})" for d in data if d["note"]]
    if never:
        text.append("Never kept: " + "; ".join(never) + ".")
    return Section(
        "Cores",
        "cores",
        text,
        [Table(["Core", "Offered", "Kept", "Win share", "95 % CI", "Mean VP"], rows)],
        {"cores": data},
    )


def sources_section(result: MatchResult) -> Section:
    """Return where VP come from."""
    recs = _records(result)
    keys = ["parts", "upgrades", "core", "patents", "licenses", "end_game"]
    everyone = {k: stats.mean([b[k] for r in recs for b in r["extra"]["breakdown"]]) for k in keys}
    win = {k: stats.mean([r["extra"]["breakdown"][w][k] for r in recs for w in r["extra"]["winners"]]) for k in keys}
    rows = [[k.replace("_", " "), f"{everyone[k]:.2f}", f"{win[k]:.2f}"] for k in keys]
    return Section(
        "Where VP come from",
        "vp_sources",
        [],
        [Table(["Source", "Every player", "Winners"], rows)],
        {"everyone": everyone, "winners": win},
    )
