"""What the lab commands (`simulate`, `sweep`, `compare`) share: loading the game, its engine, the seats, progress."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional, ParamSpec, TypeVar

import typer

from ..contract import Capability, LoadedGame
from .gamecli import command_line, usage

if TYPE_CHECKING:
    from ..sim.plugin import Plugin
    from ..sim.report import Document
    from ..sim.tasks import Executor

P = ParamSpec("P")
R = TypeVar("R")


def stamp(document: Document, games: Sequence[LoadedGame[Any]], bots: Sequence[str], seeds: dict[str, Any]) -> None:
    """Set the report's provenance: version, commit, every input file's hash, bots, seeds and this command."""
    from ..sim import provenance  # here: the lab's modules load only for a lab command

    document.provenance = provenance.collect([g.dir for g in games], bots, seeds, command_line()[1:])


def interruptible(command: Callable[P, R]) -> Callable[P, R]:
    """Let Ctrl-C outside the games (loading, preparing) end the command with a message and exit 130 too."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            typer.echo("interrupted before any game finished; nothing written", err=True)
            raise typer.Exit(130) from None

    return run


def load_game(game: str, root: Optional[Path]) -> LoadedGame[Any]:
    """Load a game through the schema layer, or raise the diagnostics that stop it."""
    from .. import pipeline
    from ..project.folders import find_root

    return pipeline.load(find_root(root), game)


def check_scheduler(scheduler: Optional[str]) -> None:
    """Refuse a --scheduler that is no Dask address (before anything is loaded)."""
    from ..sim.cluster import check_address

    if scheduler is not None and (problem := check_address(scheduler)) is not None:
        raise usage(
            "U007", f"--scheduler: {problem}", hint="give tcp://HOST:8786 (a running `dask scheduler`) or local:2"
        )


def simulation_of(loaded: LoadedGame[Any], game: str, variant: List[str]) -> Plugin:
    """Return the game's simulation plugin for the variants, refusing a game without one or an unknown variant."""
    ruleset = loaded.ruleset
    if not ruleset.offers(Capability.SIMULATE):
        raise usage(
            "U005",
            f"the ruleset of '{game}' ({ruleset.name}) has no rules engine, so it cannot be simulated",
            hint="`cardpress validate` still checks its card data",
        )
    unknown = [v for v in variant if v not in ruleset.variants]
    if unknown:
        offered = f"variants: {', '.join(ruleset.variants)}" if ruleset.variants else "it has none"
        raise usage("U006", f"unknown variant '{unknown[0]}' for {loaded.header.title}", hint=offered)
    return ruleset.simulation(loaded, variant)


def lineup(
    plugin: Plugin, loaded: LoadedGame[Any], players: Optional[int], bots: Optional[str]
) -> tuple[int, list[str]]:
    """Return the player count and one checked bot spec per seat for --players and --bots."""
    from ..sim.plugin import BotSpecError

    n = plugin.default_players if players is None else players
    if n not in plugin.players:
        raise usage(
            "U002",
            f"{loaded.header.title} is not played by {n} players",
            hint=f"supported player counts: {', '.join(map(str, plugin.players))}",
        )
    specs = [s.strip() for s in (bots or plugin.default_bots).split(",")]
    if len(specs) == 1:
        specs *= n
    if len(specs) != n:
        raise usage(
            "U003", f"--bots names {len(specs)} bots for {n} seats", hint="name one bot for every seat, or one per seat"
        )
    try:
        return n, [plugin.check_spec(s) for s in specs]
    except BotSpecError as exc:
        raise usage("U001", str(exc), hint="`cardpress simulate GAME --list-bots` lists them") from None


@contextlib.contextmanager
def playing(executor: Executor) -> Iterator[None]:
    """Show the games' progress; on Ctrl-C say how many finished (exit 130); a cluster problem is U008.

    The executor is closed whatever happens, so no worker outlives the command."""
    from ..sim import progress
    from ..sim.cluster import ClusterError
    from ..sim.tasks import Interrupted

    try:
        with progress.reporting("games"):
            yield
    except Interrupted as stop:
        typer.echo(f"interrupted: {stop.done} of {stop.total} games finished; no report written", err=True)
        raise typer.Exit(130) from None
    except ClusterError as exc:
        raise usage(
            "U008",
            str(exc),
            hint="start `dask scheduler` and `dask worker` first (see 'Run on a cluster' in the manual)",
        ) from None
    finally:
        executor.close()
