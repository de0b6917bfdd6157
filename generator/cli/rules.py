"""The rules commands: `simulate` for every ruleset with a simulation, and the commands rulesets declare themselves.

`cardpress explain GAME …` and `cardpress analyze GAME …` are not defined here: the core loads GAME, asks its
ruleset for the command of that name and runs it with the rest of the command line, so each game's options
are its own (`cardpress analyze pocket-foundry --help` lists Pocket Foundry's).
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional, ParamSpec, TypeVar

import typer

from .. import registry as rulesets
from ..contract import Capability, GameCommand
from ..diagnostics import CardpressError
from .examples import epilog, examples, split_examples
from .gamecli import SchedulerOpt, usage, workers
from .lab import check_scheduler, interruptible, lineup, load_game, playing, simulation_of, stamp
from .options import OneGameArg, RootOpt, out_folder
from .sweep import sweep

if TYPE_CHECKING:
    pass

P = ParamSpec("P")
R = TypeVar("R")


def simulate(
    game: str = OneGameArg,
    players: Optional[int] = typer.Option(None, "--players", help="Players per game (default: 4 if supported)."),
    games: int = typer.Option(1000, "--games", min=1, max=1_000_000, help="Games in the main line-up."),
    bots: Optional[str] = typer.Option(
        None,
        "--bots",
        help="One bot for every seat, or one per seat, comma-separated, seat 1 first (default: the strong bot).",
    ),
    seed: int = typer.Option(1, "--seed", help="Seed: the same seed gives the same report."),
    jobs: int = typer.Option(
        0, "--jobs", min=0, max=256, help="Worker processes (0: one per core); results do not depend on it."
    ),
    skill_games: Optional[int] = typer.Option(
        None, "--skill-games", min=0, help="Games of strong bot against random bots (default: --games)."
    ),
    count_games: Optional[int] = typer.Option(
        None,
        "--count-games",
        min=0,
        help="Games at every other supported player count, for the first-player table and the ratings "
        "(default: a fifth of --games; 0 skips them).",
    ),
    out: Optional[Path] = typer.Option(
        None,
        "--out",
        help="Folder for report.html, report.md, report.json and charts/ (default: output/<game>/simulation).",
        callback=out_folder,
    ),
    log: Optional[Path] = typer.Option(
        None,
        "--log",
        help="Also write every game (seed, actions, scores) to this file, one JSON line per game "
        "(`cardpress replay LOG --game N` replays one).",
        show_default=False,
    ),
    list_bots: bool = typer.Option(False, "--list-bots", help="List the bots this game has and exit."),
    variant: List[str] = typer.Option(
        [], "--variant", help="Play a rulebook variant (repeatable); `cardpress list` shows each game's."
    ),
    scheduler: Optional[str] = SchedulerOpt,
    root: Optional[Path] = RootOpt,
) -> None:
    """Play many seeded games with bots and write a designer report (HTML with charts, Markdown and JSON)."""
    from ..project.output import write_all
    from ..sim import gamelog, publish
    from ..sim import provenance as sources
    from ..sim.executors import executor_for
    from ..sim.simulate import simulate as run

    check_scheduler(scheduler)
    loaded = load_game(game, root)
    plugin = simulation_of(loaded, game, variant)
    if list_bots:
        typer.echo(plugin.bot_help())
        return
    n, specs = lineup(plugin, loaded, players, bots)
    count = workers(jobs)
    executor = executor_for(count, scheduler)
    began = time.perf_counter()
    with playing(executor):
        others = games // 5 if count_games is None else count_games
        result = run(
            plugin, n, specs, games, seed, count, skill_games, executor, log=log is not None, count_games=others
        )
        where = (
            f"Dask cluster {scheduler}, {executor.workers} workers"
            if scheduler
            else f"{count} process" + ("es" if count > 1 else "")
        )
    wall = time.perf_counter() - began
    stamp(
        result.document,
        [loaded],
        specs,
        {"seed": seed, "matches": [m.match.label for m in (result.main, *result.skill)]},
    )
    folder = out if out is not None else Path("output") / loaded.dir.id / "simulation"
    try:
        paths = publish.write(result.document, folder if folder.is_absolute() else Path.cwd() / folder)
        if log is not None:
            inputs = sources.inputs(loaded.dir)["sha256"]
            lines = gamelog.text(result.matches, loaded.dir.id, variant, inputs)
            target = log if log.is_absolute() else Path.cwd() / log
            paths.append(write_all({target: lines.encode()}, root=target.parent)[0])
    except KeyboardInterrupt:
        typer.echo(f"interrupted: all {result.games} games finished, but no report written", err=True)
        raise typer.Exit(130) from None
    seats = result.document.sections[0].data["seats"]
    main = len(result.main.records)
    skill = sum(len(r.records) for r in result.skill)
    others = result.games - main - skill
    extra = f" ({main} with your line-up, {skill} of the skill-gap match" if result.games > main else ""
    extra += f", {others} at other player counts)" if others else (")" if extra else "")
    typer.echo(f"{result.games} games{extra} in {wall:.1f} s ({result.games / wall:.0f} games/s, {where})")
    typer.echo("win share by seat: " + ", ".join(f"{s['seat']} {s['bot']} {100 * s['win_share']:.1f} %" for s in seats))
    for path in paths:
        typer.echo(f"wrote {path}")


def replay(
    log: Path = typer.Argument(
        ..., help="A game log written by `cardpress simulate … --log FILE`.", show_default=False
    ),
    game_number: int = typer.Option(1, "--game", min=1, help="Which game: its line in the log (1 = the first)."),
    quiet: bool = typer.Option(False, "--quiet", help="Print only the verdict, not every move."),
    root: Optional[Path] = RootOpt,
) -> None:
    """Replay one logged game move by move through the engine (Pocket Foundry's runs told as `explain` tells
    them); fail, pointing at the log line, where the engine disagrees with the log.

    Example: cardpress replay output/pocket-foundry/games.jsonl --game 3
    """
    from ..diagnostics import Report
    from ..sim import gamelog
    from ..sim import provenance as sources
    from .options import echo_report

    shown_log = str(log)
    try:
        content = log.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        report = Report()
        report.error("Y004", f"cannot read the game log {shown_log}: {getattr(exc, 'strerror', None) or exc}")
        raise CardpressError(report) from None
    where = gamelog.line(content, shown_log, game_number)
    record = gamelog.parse(where)
    loaded = load_game(record["game"], root)
    plugin = simulation_of(loaded, record["game"], list(record["variant"]))
    if record["inputs_sha256"] != sources.inputs(loaded.dir)["sha256"]:
        warning = Report()
        warning.warning(
            "R003",
            f"the card files of {record['game']} changed since this log was written",
            loc=where.at(where.text.find('"inputs_sha256"') + 1 or 1),
            hint="the replay checks the log against today's files",
        )
        echo_report(warning)
    replayed = gamelog.replay(plugin, where, record)
    if not quiet:
        typer.echo(
            f"{record['game']}, {record['players']} players ({', '.join(record['bots'])}), match {record['match']} "
            f"game {record['index']}, seed {record['seed']}"
        )
        for move in replayed.moves:
            typer.echo(move)
    typer.echo(
        f"{shown_log}:{game_number}: replays exactly: {len(record['actions'])} actions, scores "
        f"{replayed.record['scores']}, the line rebuilt byte for byte"
    )


def offered_by(command: str) -> list[str]:
    """Return the rulesets that declare `command`."""
    return [r.name for r in rulesets.registrations() if r.plugin is not None and r.plugin.command(command)]


def dispatch(name: str, about: str) -> Callable[..., None]:
    """Return a command `cardpress NAME GAME [ARGS]…` that runs the command GAME's ruleset declares as NAME."""

    def command(
        ctx: typer.Context,
        game: Optional[str] = typer.Argument(None, help="Game folder under cards/.", show_default=False),
        root: Optional[Path] = RootOpt,
    ) -> None:
        if game is None or game in ("--help", "-h"):
            typer.echo(ctx.get_help())
            raise typer.Exit(0 if game else 2)
        loaded = load_game(game, root)
        declared = loaded.ruleset.command(name)
        if declared is None:
            others = offered_by(name)
            raise usage(
                "U005",
                f"{loaded.header.title} ({loaded.ruleset.name}) has no `{name}` command",
                hint=f"`{name}` is offered by: {', '.join(others)}" if others else None,
            )
        sub = declared_app(name, declared.run, loaded)
        sub(args=list(ctx.args), prog_name=f"cardpress {name} {game}", standalone_mode=False)

    command.__doc__ = f"{about}\n\nThe options are the game's own: `cardpress {name} GAME --help` lists them."
    return command


def declared_app(name: str, run: Callable[..., None], game: Any) -> typer.Typer:
    """Return a Typer app of the one command NAME a ruleset declares: `run(game, **options)`, with run's own options."""
    sub = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)

    def bound(**options: Any) -> None:
        run(game, **options)

    bound.__signature__ = _without_first(run)  # type: ignore[attr-defined]  # Typer reads the command's own options from it
    bound.__doc__, shown = split_examples(run.__doc__)
    sub.command(name, epilog=epilog(shown) if shown else None)(bound)
    return sub


def _without_first(function: Callable[..., Any]) -> inspect.Signature:
    signature = inspect.signature(function, eval_str=True)
    return signature.replace(parameters=list(signature.parameters.values())[1:])


def register(app: typer.Typer) -> None:
    """Add `simulate`, `sweep` and every command a registered ruleset declares to the cardpress CLI."""
    engines = sorted(r.name for r in rulesets.registrations() if r.plugin and r.plugin.offers(Capability.SIMULATE))
    app.command(
        help=f"{simulate.__doc__}\n\nOnly for games whose ruleset has a rules engine: {', '.join(engines)}.",
        epilog=examples("simulate"),
    )(interruptible(simulate))
    app.command(
        help=f"{sweep.__doc__}\n\nOnly for games whose ruleset has a rules engine: {', '.join(engines)}.",
        epilog=examples("sweep"),
    )(interruptible(sweep))
    app.command(epilog=examples("replay"))(replay)
    declared: dict[str, list[tuple[str, GameCommand]]] = {}
    for registration in rulesets.registrations():
        ruleset = registration.plugin
        if ruleset is not None and ruleset.offers(Capability.COMMANDS):
            for command in ruleset.commands():
                declared.setdefault(command.name, []).append((ruleset.name, command))
    for name, offers in sorted(declared.items()):
        app.command(
            name,
            help=None,
            short_help=short_help(name, offers),
            epilog=epilog(game_examples(name, offers)),
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []},
        )(interruptible(dispatch(name, about(name, offers))))


Offers = list[tuple[str, GameCommand]]  # (ruleset name, the command it declares)


def _rulesets(offers: Offers) -> str:
    names = sorted({ruleset for ruleset, _ in offers})
    return " or ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def short_help(name: str, offers: Offers) -> str:
    """Return the command's line in `cardpress --help`: which games have it, then what it does."""
    helps = {command.help for _, command in offers}
    what = helps.pop() if len(helps) == 1 else f"Each game's own {name}."
    return f"{_rulesets(offers)} games only: {what}"


def about(name: str, offers: Offers) -> str:
    """Return the command's `--help` text: what it does, and for which games (never promising more)."""
    helps = {command.help for _, command in offers}
    what = helps.pop() if len(helps) == 1 else f"Each game's own {name}: what it does depends on the game's ruleset."
    return f"{what}\n\nOnly for games whose ruleset is {_rulesets(offers)}: other games have no `{name}`."


def game_examples(name: str, offers: Offers) -> list[str]:
    """Return the examples each declaring ruleset gives for the command, then how to see a game's options."""
    found = [line for _, command in offers for line in split_examples(command.run.__doc__)[1]]
    return [*dict.fromkeys(found), f"cardpress {name} GAME --help   # that game's own options"]
