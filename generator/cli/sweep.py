"""`cardpress sweep GAME --vary PATH=RANGE`: the command line over `generator.sim.sweep`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import typer

from ..diagnostics import CardpressError, Report, did_you_mean
from .gamecli import SchedulerOpt, usage, workers
from .lab import check_scheduler, lineup, simulation_of, stamp
from .options import OneGameArg, RootOpt, out_folder


def sweep(
    game: str = OneGameArg,
    vary: List[str] = typer.Option(
        ...,
        "--vary",
        help="PATH=RANGE: a card field (cards.<id>.<field>, e.g. cards.ticket-stamp.points) or a game.yaml "
        "value (rules.rounds, or just rounds) over A..B, 'A..B step S' or a,b,c. Repeat once to sweep a grid.",
        show_default=False,
    ),
    games: int = typer.Option(200, "--games", min=1, max=1_000_000, help="Games per point (the same seeds at each)."),
    seed: int = typer.Option(1, "--seed", help="Seed: the same seed gives the same report."),
    replicate: int = typer.Option(
        0,
        "--replicate",
        min=0,
        max=10,
        help="Also play K fresh seed blocks at every point (disjoint from every --seed): the report pools them, "
        "and says whether the closest point and each step replicate.",
    ),
    players: Optional[int] = typer.Option(None, "--players", help="Players per game (default: 4 if supported)."),
    bots: Optional[str] = typer.Option(
        None, "--bots", help="One bot for every seat, or one per seat, comma-separated (default: the game's)."
    ),
    measure: Optional[str] = typer.Option(
        None,
        "--measure",
        help="What to bring to fair: owner (the swept card's users' win share; default when a card is swept), "
        "used, first-seat (default otherwise), seat-N, ties, score, winner-score, length.",
        show_default=False,
    ),
    target: Optional[float] = typer.Option(
        None, "--target", help="The value the measure should reach (default: a fair share, 1/players, for win shares)."
    ),
    jobs: int = typer.Option(
        0, "--jobs", min=0, max=256, help="Worker processes (0: one per core); results do not depend on it."
    ),
    variant: List[str] = typer.Option([], "--variant", help="Play a rulebook variant (repeatable)."),
    scheduler: Optional[str] = SchedulerOpt,
    out: Optional[Path] = typer.Option(
        None,
        "--out",
        help="Folder for sweep.html, sweep.md, sweep.json and charts/ (default: output/<game>/sweep/<path>).",
        show_default=False,
        callback=out_folder,
    ),
    strict: bool = typer.Option(
        False, "--strict", help="Skip points the game's rules check rejects (by default they are played and noted)."
    ),
    root: Optional[Path] = RootOpt,
) -> None:
    """Vary one or two card or rule values, simulate every point with the same seeds, and report how the
    measures move (with 95 % intervals) and which point comes closest to fair.

    Example: cardpress sweep pocket-foundry --vary cards.ticket-stamp.points=1..6 --games 300 --bots planner
    """
    from ..pipeline import Pipeline
    from ..project.folders import find_root
    from ..sim import progress, publish
    from ..sim import sweep as sweeping
    from ..sim import vary as varying
    from ..sim.cluster import ClusterError
    from ..sim.executors import executor_for

    check_scheduler(scheduler)
    base = find_root(root)
    pipeline = Pipeline(base, game)
    loaded = pipeline.load()
    if loaded is None:
        raise CardpressError(pipeline.report)
    plugin = simulation_of(loaded, game, variant)
    n, specs = lineup(plugin, loaded, players, bots)
    axes = varying.parse(vary, loaded.dir.sources)
    measures = sweeping.measures_for(axes, plugin, n)
    for axis in axes:
        if axis.card is not None and not plugin.follows(axis.card) and (measure or "").startswith(("owner", "used")):
            raise usage(
                "U015",
                f"--measure {measure}: {loaded.header.title}'s simulation does not record who uses '{axis.card}'",
                hint="measure first-seat, seat-N, score or length instead",
            )
    wanted = measure or ("owner" if "owner" in measures else "first-seat")
    chosen = sweeping.resolve(wanted, measures)
    if chosen is None:
        hint = did_you_mean(wanted, measures) or f"measures: {', '.join(measures)}"
        raise usage("U015", f"unknown measure '{wanted}'", hint=hint)

    count = workers(jobs)
    executor = executor_for(count, scheduler)
    meta = {
        "game": loaded.dir.id,
        "players": n,
        "bots (seat 1 first)": ", ".join(specs),
        "games per point": games,
        "seed": seed,
    }
    began = time.perf_counter()
    try:
        with progress.reporting("games"):
            result = sweeping.sweep(
                sweeping.point_loader(base, game, strict),
                lambda g: g.ruleset.simulation(g, variant),
                axes,
                n,
                specs,
                games,
                seed,
                measures,
                chosen,
                target,
                count,
                executor,
                meta,
                replicate,
            )
    except ClusterError as exc:
        raise usage(
            "U008",
            str(exc),
            hint="start `dask scheduler` and `dask worker` first (see 'Run on a cluster' in the manual)",
        ) from None
    finally:
        executor.close()
    wall = time.perf_counter() - began
    invalid = [p for p in result.points if not p.valid]
    for point in invalid:
        shown = ", ".join(f"{a.path}={v:g}" for a, v in zip(axes, point.values))
        report = Report()
        report.extend(point.problems)
        typer.echo(f"point {shown} is not a valid game (skipped):\n{report.render()}", err=True)
    noted = [p for p in result.points if p.notes]
    if noted:
        codes = sorted({d.code for p in noted for d in p.notes})
        typer.echo(
            f"the rules check disagrees with {len(noted)} played point(s) ({', '.join(codes)}); they were played "
            "anyway (--strict skips them); see the report",
            err=True,
        )
    valid = [p for p in result.points if p.valid]
    if not valid and result.interrupted is None:
        report = Report()
        report.error("U017", "every point of the sweep is rejected by the game's checks; nothing written")
        raise CardpressError(report)
    if valid:
        stamp(
            result.document,
            [loaded],
            specs,
            {"seed": seed, "blocks": [vars(blk) for blk in sweeping.blocks(seed, replicate)], "games per point": games},
        )
        folder = out if out is not None else sweeping.default_folder(loaded.dir.id, axes)
        try:
            paths = publish.write(
                result.document, folder if folder.is_absolute() else Path.cwd() / folder, stem="sweep"
            )
        except KeyboardInterrupt:
            typer.echo(f"interrupted: {len(result.points)} points finished, but no report written", err=True)
            raise typer.Exit(130) from None
    played = len(valid) * games * (1 + replicate)
    typer.echo(f"{len(result.points)} of {result.total} points, {played} games in {wall:.1f} s")
    for line in next((s.text for s in result.document.sections if s.key == "verdict"), []):
        typer.echo(line.replace("**", ""))
    if valid:
        for path in paths:
            typer.echo(f"wrote {path}")
    if result.interrupted is not None:
        stop = result.interrupted
        typer.echo(
            f"interrupted: {len(result.points)} of {result.total} points finished"
            + (f" (the next had {stop.done} of {stop.total} games)" if stop.total else "")
            + ("; the report holds those" if valid else "; no report written"),
            err=True,
        )
        raise typer.Exit(130)
