"""What `cardpress simulate` and `analyze` call for Micro-Engine (the CLI stays game-blind)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence

from ...contract import LoadedGame
from ...sdk import CardpressError, Document, Match, MatchResult, Report, Section, Table, pct, run_match, stats
from .model import MicroEngine
from .simulation import MicroEngineSim, cores_section, first_player_section


def simulation(loaded: LoadedGame[MicroEngine], variants: Sequence[str] = ()) -> MicroEngineSim:
    """Return the simulation plugin for the chosen variants (quick, travel: the ruleset declares them)."""
    quick, travel = "quick" in variants, "travel" in variants
    label = ", ".join(name for name, on in (("Quick game", quick), ("Travel mode", travel)) if on)
    return MicroEngineSim(loaded.model, loaded.dir.id + (f" ({label})" if label else ""), quick, travel)


def analyze(loaded: LoadedGame[MicroEngine], turns: int | None, restricted: bool = True, jobs: int = 1) -> Document:
    """Return the card-set analysis and the balance experiments (`restricted=False`: fewer games)."""
    model = loaded.model
    if turns is not None and not 3 <= turns <= 30:
        report = Report()
        report.error("U004", f"--turns {turns}: give 3 to 30 rounds")
        raise CardpressError(report)
    if turns is not None:
        model = dataclasses.replace(model, rules=dataclasses.replace(model.rules, rounds=turns))
    games = 400 if restricted else 100
    sections = [card_set_section(model), flow_matrix_section(model)]
    sections += balance_sections(model, loaded.dir.id, games, jobs)
    sections.append(rounds_section(model, loaded.dir.id, games // 2, jobs))
    meta = {"game": loaded.dir.id, "rounds": model.rules.rounds, "games per experiment": games, "seed": 1}
    intro = [
        "What the card set is made of, and what seeded bot games say about its balance. Win rates describe "
        "these bots, not people: compare line-ups rather than trusting one number."
    ]
    return Document(f"{model.title}: card-set analysis", meta, sections, intro)


def card_set_section(model: MicroEngine) -> Section:
    """Return counts by kind, the connection mix and the cost and VP curve."""
    parts = model.of_kind("part")
    total = sum(c.copies for c in parts)
    outs: Counter[str | None] = Counter()
    ins: Counter[str] = Counter()
    for c in parts:
        outs[c.output] += c.copies
        for i in c.inputs:
            ins[i] += c.copies
    symbols = sum(ins.values())
    mix = [
        [
            conn.name,
            f"{conn.share} %",
            outs[conn.id],
            pct(outs[conn.id] / total),
            ins[conn.id],
            pct(ins[conn.id] / symbols),
        ]
        for conn in model.connections
    ]
    kinds = [
        [k.capitalize() + "s", len(model.of_kind(k)), sum(c.copies for c in model.of_kind(k))]
        for k in ("part", "upgrade", "calibration")
    ]
    kinds += [["Cores", len(model.cores), len(model.cores)], ["Patents", len(model.patents), len(model.patents)]]
    curve = Counter((c.cost, c.vp) for c in parts for _ in range(c.copies))
    costs = sorted({c for c, _ in curve})
    cost_rows = [
        [
            cost,
            sum(n for (c, _), n in curve.items() if c == cost),
            f"{stats.mean([v for (c, v), n in curve.items() if c == cost for _ in range(n)]):.2f}",
        ]
        for cost in costs
    ]
    reqs = [[c.name, c.kind, c.cost, c.vp] for c in model.cards if c.requires]
    return Section(
        "Card set",
        "card_set",
        [
            f"The Workshop deck holds {model.deck_size} cards. The connection mix counts Part Outputs (a "
            f"Part's type is its Output), copies included; the Input columns count every type a Part "
            f'accepts (an "A or B" Input counts twice).'
        ],
        [
            Table(["Kind", "Designs", "Cards"], kinds),
            Table(["Connection", "Rulebook", "Part Outputs", "Share", "Inputs accepting", "Share"], mix),
            Table(["Part Cost", "Parts", "Mean VP"], cost_rows, caption="Cost and VP of Parts"),
            Table(["Gated card", "Kind", "Cost", "VP"], reqs, caption="Cards with a Requirement"),
        ],
        {"outputs": dict(outs), "inputs": dict(ins), "deck": model.deck_size},
    )


def flow_matrix_section(model: MicroEngine) -> Section:
    """Return, for each Output a chain can end in, how many Parts can attach next."""
    parts = model.of_kind("part")
    total = sum(c.copies for c in parts)
    rows, data = [], {}
    for conn in model.connections:
        nxt = sum(c.copies for c in parts if conn.id in c.inputs)
        rows.append([conn.name, nxt, pct(nxt / total)])
        data[conn.id] = nxt / total
    return Section(
        "Connection flow",
        "flow_matrix",
        [
            "How many of the Parts in the deck can attach to a chain ending in each type. A low share makes "
            "that Output a dead end unless an Adapter Plate, a Realignment or Compass Rose opens it."
        ],
        [Table(["Chain ends in", "Parts that attach", "Share of Parts"], rows)],
        data,
    )


def _match(
    model: MicroEngine,
    game_id: str,
    label: str,
    players: int,
    bots: tuple[str, ...],
    games: int,
    jobs: int,
    **variant: bool,
) -> MatchResult:
    plugin = MicroEngineSim(model, game_id, **variant)  # type: ignore[arg-type]  # variant: the bool flags quick, travel
    return run_match(plugin, Match(label, players, bots, games, 1), jobs)


def balance_sections(model: MicroEngine, game_id: str, games: int, jobs: int) -> list[Section]:
    """Return the bot ladder, the turn-order advantage and the Core balance at 4 (or most) players."""
    n = 4 if 4 in model.players else max(model.players)
    ladder_rows = []
    for strong, weak, k in (("heuristic", "random", games), ("rollout", "heuristic", max(8, games // 25))):
        shares, mine, theirs = [], [], []
        for seat in range(n):
            bots = tuple(strong if i == seat else weak for i in range(n))
            result = _match(model, game_id, f"ladder-{strong}-{seat}", n, bots, max(1, k // n), jobs)
            shares += [r["returns"][seat] for r in result.records]
            mine += [r["scores"][seat] for r in result.records]
            theirs += [s for r in result.records for i, s in enumerate(r["scores"]) if i != seat]
        lo, hi = stats.share_ci(shares)
        ladder_rows.append(
            [
                f"1 {strong} vs {n - 1} {weak}",
                len(shares),
                pct(stats.mean(shares)),
                f"[{100 * lo:.1f}, {100 * hi:.1f}] %",
                f"{stats.mean(mine):.1f} vs {stats.mean(theirs):.1f}",
            ]
        )
    ladder = Section(
        "Bot ladder",
        "ladder",
        [
            f"One stronger bot in each seat in turn against weaker ones, {n} players; a fair share is "
            f"{pct(1 / n)}. The rollout bot is slow, so it plays few games: read its interval."
        ],
        [Table(["Line-up", "Games", "Win share", "95 % CI", "VP (strong vs others)"], ladder_rows)],
    )
    same = _match(model, game_id, "random-cores", n, ("heuristic-random-core",) * n, games, jobs)
    order = first_player_section(same)
    cores = cores_section(same, model)
    cores.title = "Cores kept at random"
    return [ladder, order, cores]


def rounds_section(model: MicroEngine, game_id: str, games: int, jobs: int) -> Section:
    """Return what changes with the number of rounds: chains, the deck running dry, turn order, tempo."""
    r0 = model.rules.rounds
    rows = []
    data = []
    for players in model.players:
        for rounds in range(max(3, r0 - 2), r0 + 3):
            m = dataclasses.replace(model, rules=dataclasses.replace(model.rules, rounds=rounds))
            result = _match(m, game_id, f"rounds-{rounds}", players, ("heuristic",) * players, games, jobs)
            recs = result.records
            chains = stats.mean([c for rec in recs for c in rec["extra"]["chains"]])
            dry = stats.mean([1.0 if rec["extra"]["dry_draws"] else 0.0 for rec in recs])
            first = stats.mean([rec["returns"][rec["extra"]["first"]] for rec in recs])
            sbr = [stats.mean([s for rec in recs for s in rec["extra"]["score_by_round"][k]]) for k in range(rounds)]
            last = sbr[-1] - sbr[-2] if rounds > 1 else sbr[-1]
            rows.append(
                [
                    players,
                    rounds,
                    f"{chains:.2f}",
                    pct(dry, 0),
                    pct(first),
                    f"{last:.1f}",
                    f"{stats.mean([max(rec['scores']) for rec in recs]):.1f}",
                ]
            )
            data.append(
                {
                    "players": players,
                    "rounds": rounds,
                    "chain": chains,
                    "dry": dry,
                    "first_share": first,
                    "last_round_gain": last,
                }
            )
    return Section(
        "Number of rounds",
        "rounds",
        [
            f"The rulebook leaves the number of rounds open; this edition plays {r0} (Quick game "
            f"{model.rounds(quick=True)}). Heuristic bots, {games} games per cell. A good length ends "
            "while the last round still pays (gain per player) and before the deck runs dry."
        ],
        [
            Table(
                ["Players", "Rounds", "Chain", "Deck ran dry", "First player wins", "Last-round gain", "Winner's VP"],
                rows,
            )
        ],
        data,
    )
