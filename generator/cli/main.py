"""The `cardpress` command line: a thin Typer layer over `generator.pipeline`."""

from __future__ import annotations

import contextlib
import gc
import importlib
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional

import typer
from typer.core import TyperGroup

from .. import __version__
from ..diagnostics import CardpressError, Report
from . import coercion
from .examples import examples
from .options import (
    GameArg,
    MissingArt,
    MissingArtOpt,
    Paper,
    PaperOpt,
    RootOpt,
    echo_report,
    out_folder,
    root_of,
    shown,
)

coercion.install()  # before any command parses its options: plain values need no pydantic

# The modules that add the rest of the commands (the lab, live proofs, editions, exports, translations), in
# the order --help lists them after this module's own.
MORE = ("rules", "iterate", "edition", "export", "translate")


def typer_app(**settings: Any) -> typer.Typer:
    """Return a Typer app with the look every cardpress command shares: plain help, no completion, no pretty
    tracebacks."""
    return typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False, **settings)


class Commands(TyperGroup):
    """The cardpress commands. Those of the modules in MORE are added only when one of them is asked for, or
    all are listed: `cardpress build` does not load the lab, the exports and the editions, nor their options."""

    _more = False  # the commands of MORE added

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return super().get_command(ctx, cmd_name) or self._with_more().commands.get(cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self._with_more().commands)

    def _with_more(self) -> Commands:
        """Add the commands of every module in MORE (once), after this module's own; return self."""
        if not self._more:
            more = typer_app()
            for name in MORE:
                importlib.import_module(f"{__package__}.{name}").register(more)
            for name, command in typer.main.get_group(more).commands.items():
                self.add_command(command, name)
            self._more = True
        return self


def commands() -> Mapping[str, Any]:
    """Return every cardpress command by name (Click commands), in the order --help lists them."""
    group = typer.main.get_command(app)
    assert isinstance(group, Commands)
    return group._with_more().commands


app = typer_app(
    cls=Commands,
    no_args_is_help=True,
    help="Turn tabletop-game cards written in YAML into cut-ready print-and-play PDFs.",
    epilog=examples("cardpress"),
)


@app.command(epilog=examples("validate"))
def validate(
    game: Optional[str] = GameArg, root: Optional[Path] = RootOpt, missing_art: Optional[MissingArt] = MissingArtOpt
) -> None:
    """Check card files: schema, references, rules, layout and art. Exit 1 on any error."""
    from ..pipeline import Pipeline, resolve_games

    base = root_of(root)
    total, reports = Report(), {}
    try:
        for game_id in resolve_games(base, game):
            pipeline = Pipeline(base, game_id, missing_art=missing_art.value if missing_art else None)
            pipeline.lint()
            total.extend(pipeline.report.items)
            reports[game_id] = pipeline.report
    except KeyboardInterrupt:
        echo_report(total)
        done = list(reports)
        typer.echo(f"interrupted: {len(done)} game(s) checked{': ' + ', '.join(done) if done else ''}", err=True)
        raise typer.Exit(130) from None
    _verdicts(total, reports, "ok", "failed")
    if not total.ok():
        raise typer.Exit(1)


def _verdicts(total: Report, reports: dict[str, Report], good: str, bad: str, problems: bool = True) -> None:
    """Print the problems first, each once; then one summary last: a line per game, and the total when several."""
    from .console import print_line, print_problems, summary_style

    if problems:
        print_problems(total)
    if len(reports) == 1 and total.ok():
        ((gid, report),) = reports.items()
        print_line(f"{gid}: {good} ({report.summary()})", summary_style(report))
        return
    if len(reports) > 1:
        for gid, report in reports.items():
            print_line(
                f"{gid}: {good if report.ok() else bad} ({report.summary()})",
                summary_style(report),
                err=not report.ok(),
            )
    if len(reports) > 1 or not total.ok():
        games = f"{len(reports)} games: " if len(reports) > 1 else ""
        print_line(games + total.summary(), summary_style(total), err=not total.ok())


@app.command(epilog=examples("build"))
def build(
    game: Optional[str] = GameArg,
    paper: Paper = PaperOpt,
    players: Optional[int] = typer.Option(
        None, "--players", help="Player count (default: the largest supported; `cardpress list` shows each game's)."
    ),
    out: Path = typer.Option(Path("output"), "--out", help="Folder to write into.", callback=out_folder),
    root: Optional[Path] = RootOpt,
    missing_art: Optional[MissingArt] = MissingArtOpt,
) -> None:
    """Validate, then build each game's print-and-play kit into OUT/<game>/."""
    from .. import build as builder
    from ..layout import collector

    base = root_of(root)
    papers = ["a4", "letter"] if paper is Paper.both else [paper.value]
    out_dir = out if out.is_absolute() else Path.cwd() / out
    result = builder.BuildResult()
    try:
        with collector.off():
            builder.build(
                base,
                game,
                papers=papers,
                players=players,
                out=out_dir,
                missing_art=missing_art.value if missing_art else None,
                result=result,
            )
    except KeyboardInterrupt:  # the kits are written as one set at the end: none of this run's is on disk
        done = result.built + result.failed
        typer.echo(
            f"interrupted: {len(done)} game{'s' if len(done) != 1 else ''} checked"
            f"{' (' + ', '.join(done) + ')' if done else ''}; no kit written, the previous ones are whole",
            err=True,
        )
        raise typer.Exit(130) from None
    from .console import print_problems

    print_problems(result.report)  # warnings too: the kit was built, but something deserves a look
    for path in result.written:
        typer.echo(f"wrote {shown(path)}")
    _verdicts(result.report, result.reports, "built", "not built", problems=False)
    if result.failed:
        raise typer.Exit(1)


@app.command(epilog=examples("new"))
def new(
    game: str = typer.Argument(..., help="Name of the new game's folder under cards/, e.g. star-port."),
    size: str = typer.Option("poker", "--size", help="Card size: a preset (poker, tarot, mini …) or e.g. 63x88mm."),
    from_csv: Optional[Path] = typer.Option(
        None, "--from-csv", help="Make the cards from this CSV, .xlsx or .ods table (a name column)."
    ),
    sheet: Optional[str] = typer.Option(
        None, "--sheet", help="The sheet of an .xlsx or .ods workbook the cards are on (default: its first)."
    ),
    root: Optional[Path] = RootOpt,
) -> None:
    """Make a new card game from data and templates (ruleset `deck`) that builds at once."""
    from ..project.folders import find_root
    from ..project.scaffold import new_game

    where = find_root(root, needs_cards=False, outside=Path.cwd())  # outside any project: a new one here
    written = new_game(where, game, size=size, from_csv=from_csv, sheet=sheet, tell=typer.echo)
    for path in written:
        typer.echo(f"wrote {shown(path)}")
    table = next((p.name for p in written if p.stem == "cards" and p.parent.name == game), "cards.csv")
    typer.echo(f"next: edit cards/{game}/{table} and its layouts/, then `cardpress build {game}`")


@app.command(epilog=examples("codes"))
def codes(
    code: Optional[str] = typer.Argument(
        None, help="One code to explain, e.g. S003 (default: every code).", show_default=False
    ),
) -> None:
    """List every diagnostic code cardpress reports, with where it comes from and what it means."""
    from ..codes import registry
    from ..diagnostics import did_you_mean
    from .gamecli import usage

    known = registry()
    if code is not None and code.upper() not in known:
        raise usage(
            "U009",
            f"no diagnostic code '{code}'",
            hint=did_you_mean(code.upper(), known) or "`cardpress codes` lists them",
        )
    chosen = [known[code.upper()]] if code is not None else list(known.values())
    width = max(len(c.layer) for c in chosen)
    for c in chosen:
        typer.echo(f"{c.code:6} {c.layer:{width}}  {c.meaning}")


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"cardpress {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", callback=version_callback, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """cardpress: print-and-play kits from YAML card data."""


# A command keeps every face it lays out alive until it is done, so the collector's default pace (a young
# collection every 700 allocations) spent ~3.5 % of a first build rescanning them. At 10,000 the older
# collections still took 6 % of a 1,600-card first build's CPU time; at 50,000, 4 %. `build` turns it off.
GC_THRESHOLDS = (50_000, 10, 10)


def main() -> None:
    """Console entry point: user errors become diagnostics and exit 1, never a traceback."""
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        _run()
    finally:  # on the way out: the interpreter's teardown then searches none of it for cycles (2 % of a build)
        gc.freeze()


def _run() -> None:
    try:
        code = app(standalone_mode=False)
    except CardpressError as exc:
        echo_report(exc.report)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(1)
    except KeyboardInterrupt:  # a command with nothing finished to tell: every write is all or nothing
        typer.echo("interrupted; nothing written", err=True)
        sys.exit(130)
    except Exception as exc:  # click's usage errors carry their own exit code (2)
        # typer ≥ 0.2x vendors click; a separately installed click (dask brings one) has other classes.
        kinds: list[type[Any]] = []
        for module in ("typer._click.exceptions", "click.exceptions"):
            with contextlib.suppress(ImportError):
                kinds.append(importlib.import_module(module).ClickException)

        if isinstance(exc, tuple(kinds)):
            clicked: Any = exc  # one of click's exception classes, found at run time
            if clicked.exit_code == 2:  # a usage mistake: said as a diagnostic, in our words
                from .mistakes import report

                echo_report(report(clicked))
            else:
                clicked.show()
            sys.exit(clicked.exit_code)
        typer.echo(
            "cardpress: internal error (this is a bug in cardpress, not in your files); please report it:", err=True
        )
        import traceback  # only a bug in cardpress prints one

        traceback.print_exc()
        sys.exit(70)
    sys.exit(code if isinstance(code, int) else 0)


def list_games(
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    out: Path = typer.Option(Path("output"), "--out", help="Folder the kits were built into."),
    root: Optional[Path] = RootOpt,
) -> None:
    """List every game and edition under cards/: ruleset, title, player counts, card sizes and kit files."""
    import json

    from ..project.catalog import catalog
    from .console import console, table

    found = catalog(root_of(root), out if out.is_absolute() else Path.cwd() / out, shown)
    if as_json:
        typer.echo(json.dumps([g.to_json() for g in found], indent=1, ensure_ascii=False))
        return
    grid = table(None, ["Game", "Title", "Ruleset", "Players", "Card sizes", "Kit files"])
    for g in found:
        name = g.id + (f"\n(edition of {g.extends})" if g.extends else "")
        players = ", ".join(f"{n}*" if n == g.default_players else str(n) for n in g.players) or "?"  # not read
        cards = "\n".join(f"{s['cards']} × {s['size']}" for s in g.card_sizes)
        if g.errors:
            cards = f"does not load: {g.errors} error{'s' if g.errors > 1 else ''} (cardpress validate {g.id})"
        grid.add_row(name, g.title or "?", g.ruleset or "?", players, cards, "\n".join(g.kits) or "not built")
    out_console = console(wide=True)
    out_console.print(grid)
    out_console.print(f"{len(found)} games; * marks the default player count", style="dim")


for _name in ("list", "games"):
    app.command(_name, epilog=examples("list"), hidden=_name == "games")(list_games)
