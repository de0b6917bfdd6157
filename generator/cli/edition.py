"""The fan-edition commands: `new-edition`, `diff` and `compare` (registered on the main CLI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from .examples import examples
from .gamecli import JobsOpt, SchedulerOpt
from .lab import interruptible, playing, stamp
from .options import RootOpt, out_folder, root_of, shown

NameArg = typer.Argument(..., help="Folder name of the new edition under cards/, e.g. pocket-foundry-deluxe.")


def new_edition(
    name: str = NameArg,
    base: str = typer.Option(..., "--from", help="The game (or edition) it is based on.", show_default=False),
    title: Optional[str] = typer.Option(None, "--title", help="Its title (default: '<base title>: Fan Edition')."),
    author: List[str] = typer.Option([], "--author", help="An author's name (repeatable)."),
    licence: Optional[str] = typer.Option(None, "--licence", help="Its licence, e.g. 'CC BY-SA 4.0'."),
    version: str = typer.Option("0.1", "--version", help="Its version."),
    rulebook: bool = typer.Option(
        False, "--rulebook", help="Copy the base's rulebook.txt to edit (an edition that changes a rule says so there)."
    ),
    root: Optional[Path] = RootOpt,
) -> None:
    """Create cards/NAME/: a fan edition that extends a game and holds only what it changes."""
    from ..editions.chain import create

    for path in create(
        root_of(root),
        name,
        base,
        title=title,
        authors=tuple(author),
        licence=licence,
        version=version,
        rulebook=rulebook,
    ):
        typer.echo(f"wrote {shown(path)}")
    typer.echo(
        f"{name} extends {base}. Change cards by id in a file named like the base's; "
        f"`cardpress diff {name}` lists what it changes, `cardpress validate {name}` checks it."
    )


def diff(
    edition: str = typer.Argument(..., help="A fan edition under cards/.", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
    root: Optional[Path] = RootOpt,
) -> None:
    """List what a fan edition changes against the game it extends: card by card, constants, rulebook, files."""
    from ..editions.diff import diff as run
    from ..editions.diff import to_text

    result = run(root_of(root), edition)
    typer.echo(json.dumps(result.to_json(), indent=1, ensure_ascii=False) if as_json else to_text(result), nl=as_json)


def compare(
    a: str = typer.Argument(..., help="A game or edition (A, the baseline).", show_default=False),
    b: str = typer.Argument(..., help="Another edition of the same game (B).", show_default=False),
    players: Optional[int] = typer.Option(None, "--players", help="Players per game (default: as `simulate`)."),
    games: int = typer.Option(1000, "--games", min=2, max=1_000_000, help="Games played by each."),
    bots: Optional[str] = typer.Option(
        None, "--bots", help="One bot for every seat, or one per seat, comma-separated (default: the strong bot)."
    ),
    seed: int = typer.Option(1, "--seed", help="Seed: game i of A and of B are dealt from the same seed."),
    replicate: int = typer.Option(
        0,
        "--replicate",
        min=0,
        max=10,
        help="Also play K fresh seed blocks (disjoint from every --seed): each is reported on its own and all "
        "pooled, and the report says which differences replicate.",
    ),
    jobs: int = JobsOpt,
    variant: List[str] = typer.Option([], "--variant", help="Play a rulebook variant (repeatable), in both."),
    out: Optional[Path] = typer.Option(
        None,
        "--out",
        help="Folder for compare.html, compare.md, compare.json and charts/ (default: output/B/compare/A-vs-B, where `serve` lists it with B's reports).",
        callback=out_folder,
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of Markdown."),
    scheduler: Optional[str] = SchedulerOpt,
    root: Optional[Path] = RootOpt,
) -> None:
    """Play two editions of a game with the same seeds, bots and players; report each difference with a 95 % interval,
    Holm-corrected per table (HTML with charts, Markdown and JSON); --replicate K checks it on K fresh seed blocks.

    Example: cardpress compare pocket-foundry pocket-foundry-unjammed --games 2000 --replicate 2
    """
    from .. import pipeline
    from ..contract import Capability
    from ..sim import publish
    from ..sim import report as writer
    from ..sim.cluster import check_address
    from ..sim.compare import compare as run
    from ..sim.compare import report_charts
    from ..sim.executors import executor_for
    from ..sim.plugin import BotSpecError
    from .gamecli import usage, workers

    if scheduler is not None and (problem := check_address(scheduler)) is not None:
        raise usage(
            "U007", f"--scheduler: {problem}", hint="give tcp://HOST:8786 (a running `dask scheduler`) or local:2"
        )
    base = root_of(root)
    loaded = [pipeline.load(base, game) for game in (a, b)]
    rulesets = [g.ruleset for g in loaded]
    if rulesets[0].name != rulesets[1].name:
        raise usage(
            "U019",
            f"{a} is a {rulesets[0].name} game and {b} a {rulesets[1].name} game: only editions of one game compare",
            hint=f"compare {a} with an edition of it (make one with `cardpress new-edition NAME --from {a}`)",
        )
    ruleset = rulesets[0]
    if not ruleset.offers(Capability.SIMULATE):
        raise usage("U005", f"the ruleset of '{a}' ({ruleset.name}) has no rules engine, so it cannot be simulated")
    unknown = [v for v in variant if v not in ruleset.variants]
    if unknown:
        offered = f"variants: {', '.join(ruleset.variants)}" if ruleset.variants else "it has none"
        raise usage("U006", f"unknown variant '{unknown[0]}' for {loaded[0].header.title}", hint=offered)
    plugins = [ruleset.simulation(g, variant) for g in loaded]
    n = plugins[0].default_players if players is None else players
    for game, plugin in zip(loaded, plugins):
        if n not in plugin.players:
            raise usage(
                "U002",
                f"{game.header.title} is not played by {n} players",
                hint=f"supported player counts: {', '.join(map(str, plugin.players))}",
            )
    specs = [x.strip() for x in (bots or plugins[0].default_bots).split(",")]
    specs = specs * n if len(specs) == 1 else specs
    if len(specs) != n:
        raise usage("U003", f"--bots names {len(specs)} bots for {n} seats", hint="name one bot for every seat")
    try:
        for plugin in plugins:
            specs = [plugin.check_spec(x) for x in specs]
    except BotSpecError as exc:
        raise usage("U001", str(exc), hint="`cardpress simulate GAME --list-bots` lists them") from None
    count = workers(jobs)
    executor = executor_for(count, scheduler)
    with playing(executor):
        result = run(plugins[0], plugins[1], (a, b), n, specs, games, seed, count, executor, replicate)
    stamp(
        result.document, loaded, specs, {"seed": seed, "blocks": [vars(blk) for blk in result.blocks], "games": games}
    )
    folder = out if out is not None else Path("output") / b / "compare" / f"{a}-vs-{b}"
    folder = folder if folder.is_absolute() else Path.cwd() / folder
    try:
        paths = publish.write(result.document, folder, stem="compare", charts=report_charts)
    except KeyboardInterrupt:
        typer.echo(f"interrupted: all {2 * games * (1 + replicate)} games finished, but no report written", err=True)
        raise typer.Exit(130) from None
    typer.echo(
        json.dumps(writer.to_json(result.document), indent=1) if as_json else writer.to_markdown(result.document)
    )
    for path in paths:
        typer.echo(f"wrote {shown(path)}", err=True)


def register(app: typer.Typer) -> None:
    """Add the fan-edition commands to the cardpress CLI."""
    app.command("new-edition", epilog=examples("new-edition"))(new_edition)
    app.command(epilog=examples("diff"))(diff)
    app.command(epilog=examples("compare"))(interruptible(compare))
