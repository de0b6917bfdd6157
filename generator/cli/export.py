"""The `export` command: a thin Typer layer over generator.export."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any, List, Optional

import typer

from ..diagnostics import Report
from ..export import target as export_targets
from .examples import examples
from .options import (
    MissingArt,
    MissingArtOpt,
    Paper,
    RootOpt,
    echo_report,
    fail,
    out_folder,
    paper_option,
    root_of,
    shown,
)

# The `--to` choices: every registered export target (named by its entry point, not imported), and all.
Target = StrEnum("Target", {name: name for name in [*export_targets.names(), "all"]})  # type: ignore[misc]


class Shop(StrEnum):
    """Which shop's requirements `preflight` checks."""

    dtc = "dtc"
    tgc = "tgc"
    mpc = "mpc"
    tts = "tts"
    all = "all"


class Duplex(StrEnum):
    """How the home kit is printed."""

    long = "long"
    short = "short"
    gutterfold = "gutterfold"


def register(app: typer.Typer) -> None:
    """Add the export and preflight commands to the app."""
    register_preflight(app)

    @app.command(epilog=examples("export"))
    def export(
        game: Optional[str] = typer.Argument(None, help="Game (or edition) folder under cards/ (default: every game)."),
        to: List[Target] = typer.Option(..., "--to", help="Target; repeat for several, or 'all'."),
        out: Path = typer.Option(
            Path("output"), "--out", help="Folder to write into: OUT/<game>/<target>/.", callback=out_folder
        ),
        paper: Paper = paper_option("pnp: paper size"),
        players: Optional[int] = typer.Option(None, "--players", help="Player count (default: the game's)."),
        duplex: Duplex = typer.Option(Duplex.long, "--duplex", help="pnp: long- or short-edge duplex, or gutterfold."),
        back_offset: Optional[str] = typer.Option(
            None, "--back-offset", help="pnp: X,Y mm to move the backs by (from the duplex check page)."
        ),
        low_ink: bool = typer.Option(False, "--low-ink", help="pnp: light fills and backs, the same text and icons."),
        dpi: int = typer.Option(300, "--dpi", help="cards: resolution of the face PNGs (72 to 1200)."),
        trim: bool = typer.Option(False, "--trim", help="cards: cut the PNGs at the trim (default: with bleed)."),
        url_prefix: str = typer.Option("", "--url-prefix", help="tts: where the images will be hosted."),
        cmyk_profile: Optional[Path] = typer.Option(
            None,
            "--cmyk-profile",
            help="drivethrucards: convert through this CMYK ICC profile and embed it (default: none, CGATS TR 001).",
        ),
        root: Optional[Path] = RootOpt,
        missing_art: Optional[MissingArt] = MissingArtOpt,
    ) -> None:
        """Export each game to home kits, print shops, Tabletop Simulator or one bundle, into OUT/<game>/<target>/."""
        from ..export.cmyk import profile_problem
        from ..export.options import ExportOptions
        from ..export.runner import run
        from ..impose.sheets import PrintOptions

        report = Report()
        offset = _offset(back_offset, report)
        if not 72 <= dpi <= 1200:
            report.error("X002", f"--dpi must be 72 to 1200, not {dpi}", hint="300 is what print shops ask for")
        try:
            print_options = PrintOptions(duplex=duplex.value, back_offset=offset)
        except ValueError as exc:
            report.error("X001", f"--back-offset: {exc}", hint="measure the shift on the duplex check page (page 2)")
            print_options = PrintOptions()
        if cmyk_profile is not None and not cmyk_profile.is_file():
            report.error("X003", f"--cmyk-profile: no such file: {cmyk_profile}", hint="give a CMYK .icc file")
        elif cmyk_profile is not None and (problem := profile_problem(cmyk_profile)):
            report.error(
                "X003", f"--cmyk-profile: {problem}", hint="give a CMYK .icc file (the print shop's, or FOGRA39)"
            )
        if not report.ok():
            fail(report)
        targets = [t.name for t in export_targets.exports()] if "all" in to else list(dict.fromkeys(str(t) for t in to))
        options = ExportOptions(
            papers=("a4", "letter") if paper is Paper.both else (paper.value,),
            players=players,
            print_options=print_options,
            low_ink=low_ink,
            dpi=dpi,
            bleed=not trim,
            url_prefix=url_prefix,
            out=out if out.is_absolute() else Path.cwd() / out,
            cmyk_profile=cmyk_profile,
        )
        out_dir = options.out
        result = run(root_of(root), game, targets, out_dir, options, missing_art.value if missing_art else None)
        echo_report(result.report)
        for path in result.written:
            typer.echo(f"wrote {shown(path)}")
        _summary(result.checks)
        if result.failed:
            typer.echo(f"not exported: {', '.join(result.failed)}", err=True)
        if result.failed or not result.report.ok():
            raise typer.Exit(1)


def _summary(checks: list[Any]) -> None:
    """Print how many preflight checks passed, per shop."""
    shops: dict[str, list[Any]] = {}
    for check in checks:
        shops.setdefault(check.shop, []).append(check)
    for shop, made in shops.items():
        typer.echo(f"preflight {shop}: {_counted(made)}")


def _counted(checks: list[Any]) -> str:
    """Return 'N checks: P pass, W warn, F fail'."""
    warned = sum(not c.ok and c.severity != "error" for c in checks)
    failed = sum(not c.ok and c.severity == "error" for c in checks)
    return f"{len(checks)} checks: {len(checks) - warned - failed} pass, {warned} warn, {failed} fail"


def register_preflight(app: typer.Typer) -> None:
    """Add the preflight command to the app."""

    @app.command(epilog=examples("preflight"))
    def preflight(
        game: Optional[str] = typer.Argument(None, help="Game (or edition) folder under cards/ (default: every game)."),
        shop: List[Shop] = typer.Option([Shop.all], "--shop", help="Shop to check for; repeat for several, or 'all'."),
        out: Path = typer.Option(Path("output"), "--out", help="Folder the export wrote into: OUT/<game>/<target>/."),
        root: Optional[Path] = RootOpt,
    ) -> None:
        """Check exported files against each shop's requirements: a PASS or FAIL line per check, located."""
        from ..export import preflight as checks

        shops = list(checks.SHOPS) if Shop.all in shop else list(dict.fromkeys(str(s) for s in shop))
        out_dir = out if out.is_absolute() else Path.cwd() / out
        result = checks.run(root_of(root), game, shops, out_dir)
        for line in result.lines():
            typer.echo(line)
        echo_report(result.report)
        typer.echo(_counted(result.checks))
        if not result.report.ok():
            raise typer.Exit(1)


def _offset(text: Optional[str], report: Report) -> tuple[float, float]:
    """Return the back offset written 'X,Y' (mm), reporting text that is not two numbers."""
    if text is None:
        return (0.0, 0.0)
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        report.error("X001", f"--back-offset must be X,Y in mm, like 1.5,-0.5, not '{text}'", hint="two numbers")
        return (0.0, 0.0)
    return (x, y)
