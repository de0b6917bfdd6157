"""The commands for iterating on cards and art: proof, watch, serve and art (registered on the main CLI)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from ..diagnostics import CardpressError, Diagnostic, Report
from .options import (
    GameArg,
    MissingArt,
    MissingArtOpt,
    Paper,
    PaperOpt,
    RootOpt,
    echo_report,
    fail,
    out_folder,
    root_of,
    shown,
)

if TYPE_CHECKING:
    from ..iterate.session import Outcome, Session
    from ..project.folders import GameDir
    from ..render.draw import Prepared

OutOpt = typer.Option(
    Path("output"),
    "--out",
    help="Folder to write into (proof: OUT/<game>/proofs/; watch and serve: OUT/<game>/preview/).",
    callback=out_folder,
)
PlayersOpt = typer.Option(
    None, "--players", help="Player count (default: the game's; `cardpress list` shows each game's)."
)
DpiOpt = typer.Option(150, "--dpi", min=36, max=1200, help="Resolution of the proof images.")
OverlayOpt = typer.Option(
    False,
    "--overlay",
    help="Draw the trim (cyan), safe zone (magenta) and bleed edge, into *.overlay.png beside the clean proofs.",
)
PdfOpt = typer.Option(True, "--pdf/--no-pdf", help="Also rewrite the kit PDFs once edits pause.")


def proof(
    game: Optional[str] = GameArg,
    card: Optional[List[str]] = typer.Option(
        None, "--card", help="Only this card (id, type such as feed-belt, or glob); repeatable.", show_default=False
    ),
    dpi: int = typer.Option(300, "--dpi", min=36, max=1200, help="Resolution of the proof images."),
    overlay: bool = OverlayOpt,
    out: Path = OutOpt,
    players: Optional[int] = PlayersOpt,
    root: Optional[Path] = RootOpt,
    missing_art: Optional[MissingArt] = MissingArtOpt,
) -> None:
    """Write a PNG proof of every face (and a contact sheet) to OUT/<game>/proofs/."""
    from ..iterate.session import Session
    from .console import print_line, print_problems, summary_style

    base = root_of(root)
    total, said = Report(), []
    games = _games(base, game)
    if card and not game:
        total.error(
            "P002", "--card needs a game", hint=f"e.g. cardpress proof {games[0] if games else 'GAME'} --card {card[0]}"
        )
        fail(total)
    finished: list[str] = []
    for game_id in games:
        session = Session(
            base,
            game_id,
            _out(out),
            dpi=dpi,
            overlay=overlay,
            players=players,
            missing_art=_policy(missing_art),
            pdfs=False,
            contact=not card,
        )
        try:
            outcome = session.rebuild(only=card or None)
        except KeyboardInterrupt:  # each game's proofs are one set: those of the games done are complete
            echo_report(total)
            typer.echo(f"interrupted: proofs of {game_id} not written; {_finished(finished)}", err=True)
            raise typer.Exit(130) from None
        finished.append(game_id)
        total.extend(outcome.report.items)
        if outcome.ok and outcome.entries:
            redrawn = len(outcome.proofed)
            said.append(
                f"{game_id}: {len(outcome.entries)} {'overlay proofs (*.overlay.png)' if overlay else 'proofs'} in "
                f"{shown(session.proofs.folder)}/ "
                f"({redrawn} redrawn, {len(outcome.entries) - redrawn} unchanged) in "
                f"{outcome.seconds['total']:.2f} s"
            )
    print_problems(total)  # problems first, then what was written (a broken game hides no other), then the summary
    for line in said:
        typer.echo(line)
    if total.items:
        print_line(total.summary(), summary_style(total), err=True)
    if not total.ok():
        raise typer.Exit(1)


def _finished(games: list[str]) -> str:
    return f"finished: {', '.join(games)}" if games else "no game finished"


def watch(
    game: Optional[str] = GameArg,
    dpi: int = DpiOpt,
    overlay: bool = OverlayOpt,
    paper: Paper = PaperOpt,
    pdf: bool = PdfOpt,
    out: Path = OutOpt,
    players: Optional[int] = PlayersOpt,
    root: Optional[Path] = RootOpt,
    missing_art: Optional[MissingArt] = MissingArtOpt,
) -> None:
    """Rebuild proofs (and PDFs) whenever cards, layouts, fonts or art change; Ctrl-C stops."""
    from ..iterate import watch as watcher

    base = root_of(root)
    sessions = _sessions(base, game, out, dpi, overlay, paper, pdf, players, missing_art)
    listener = Reporter()
    typer.echo(f"watching {', '.join(shown(p) + '/' for p in watcher.watched(base))} (Ctrl-C stops)")
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C mid-rebuild: outputs are written atomically
        watcher.run(sessions, base, listener)  # builds once listening; returns on Ctrl-C while waiting
    typer.echo("stopped")


def serve(
    game: Optional[str] = GameArg,
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port on 127.0.0.1 (0: any free one)."),
    dpi: int = DpiOpt,
    overlay: bool = OverlayOpt,
    paper: Paper = PaperOpt,
    pdf: bool = PdfOpt,
    out: Path = OutOpt,
    players: Optional[int] = PlayersOpt,
    root: Optional[Path] = RootOpt,
    missing_art: Optional[MissingArt] = MissingArtOpt,
) -> None:
    """Serve a live preview page of every face and its diagnostics on 127.0.0.1, rebuilding on change."""
    from ..iterate import watch as watcher
    from ..iterate.serve import PreviewServer

    base = root_of(root)
    sessions = _sessions(base, game, out, dpi, overlay, paper, pdf, players, missing_art)
    listener = Reporter()
    try:
        server = PreviewServer(sessions, port)
    except OSError as exc:
        report = Report()
        report.error(
            "P003",
            f"cannot listen on 127.0.0.1:{port}: {exc.strerror}",
            hint="choose another port with --port (0 picks a free one)",
        )
        fail(report)
    server.start()  # the page shows progress from the very first build
    typer.echo(f"serving {server.url} (Ctrl-C stops)")
    try:
        watcher.run(sessions, base, listener)  # builds once listening; returns on Ctrl-C while waiting
    except KeyboardInterrupt:  # Ctrl-C in the middle of a rebuild: outputs are written atomically
        pass
    finally:
        server.shutdown()
    typer.echo("stopped")


def art(
    game: Optional[str] = GameArg,
    make_missing: bool = typer.Option(
        False, "--make-missing", help="Write stand-in art for every missing file, sized for its box."
    ),
    dpi: int = typer.Option(300, "--dpi", min=72, max=1200, help="Resolution of the stand-ins."),
    players: Optional[int] = PlayersOpt,
    root: Optional[Path] = RootOpt,
) -> None:
    """List the art every face names (size, resolution at print size, status), or make stand-ins."""
    from ..art.make import make_missing as write_stand_ins
    from ..pipeline import Pipeline, resolve_games
    from .console import print_line, print_problems, summary_style

    base = root_of(root)
    total = Report()
    listings = []  # printed after the problems, so the summary comes last
    for game_id in resolve_games(base, game):
        pipeline = Pipeline(base, game_id, players=players, missing_art="placeholder")
        faces, pages = pipeline.layout(), pipeline.pages()
        total.extend(pipeline.report.items)
        loaded, studio = pipeline.load(), pipeline.studio()
        if faces is None or loaded is None or studio is None:
            continue
        everything = [p for p in (*faces.values(), *pages.values()) if p is not None]
        if make_missing:
            try:
                made = write_stand_ins(everything, studio.fonts, studio.icons, loaded.dir.folder, dpi)
            except CardpressError as exc:
                total.extend(exc.report.items)
                continue
            for path in made:
                typer.echo(f"wrote {shown(path)}")
            if not made:
                typer.echo(f"{game_id}: no art is missing; nothing written")
        else:
            listings.append((game_id, everything, loaded.dir))
    print_problems(total)
    for listing in listings:  # a game that failed does not hide the others' art
        _list_art(*listing)
    if total.items:
        print_line(total.summary(), summary_style(total), err=True)
    if not total.ok():
        raise typer.Exit(1)


def _list_art(game_id: str, faces: Iterable[Prepared], game: GameDir) -> None:
    """Print one line per art file: its pixels and print resolution, the pixel size to aim for, the faces using it."""
    from rich.text import Text

    from ..art.fit import pixels_for
    from ..art.place import PRINT_DPI
    from .console import STYLES, console

    folder = Path(os.path.realpath(game.folder))
    rows: dict[str, list[Any]] = {}
    cards: dict[tuple[float, float, float], None] = {}
    for prepared in faces:
        for placed in prepared.images.values():
            if placed.file is None:
                name = "(none)"
            elif folder in placed.file.parents:
                name = str(placed.file.relative_to(folder))
            else:  # inherited from the game a fan edition extends
                name = game.shown(placed.file)
            rows.setdefault(name, [placed, []])[1].append(prepared.doc.face)
            cards[(prepared.doc.width, prepared.doc.height, prepared.doc.bleed)] = None
    weak = sum(1 for placed, _ in rows.values() if placed.art is not None and placed.fit.min_dpi < PRINT_DPI - 0.5)
    missing = sum(1 for placed, _ in rows.values() if placed.art is None)
    out = console()
    out.print(Text(f"{game_id}: {len(rows)} art files, {missing} missing, {weak} below {PRINT_DPI} dpi", "bold"))
    for w, h, bleed in cards:
        need = pixels_for((w + 2 * bleed, h + 2 * bleed), PRINT_DPI)
        out.print(
            f"  full-bleed art on a {_card(w, h)} card: {need[0]} × {need[1]} px "
            f"({w + 2 * bleed:g} × {h + 2 * bleed:g} mm with {bleed:g} mm bleed, at {PRINT_DPI} dpi)"
        )
    for name, (placed, users) in sorted(rows.items()):
        need = pixels_for(placed.box[2:], PRINT_DPI)
        aim = f"needs {need[0]} × {need[1]} px ({placed.box[2]:g} × {placed.box[3]:g} mm box at {PRINT_DPI} dpi)"
        line = Text(f"  {name:32} ")
        if placed.art is None:
            line.append("missing", STYLES["error"]).append(f": a stand-in is drawn; {aim}")
        else:
            dpi = placed.fit.min_dpi
            size = f"{placed.art.kind.upper()} {placed.art.size[0]} × {placed.art.size[1]} px, {dpi:.0f} dpi, "
            line.append(size)
            if dpi >= PRINT_DPI - 0.5:
                line.append("ok", STYLES["ok"])
            else:
                line.append(f"below {PRINT_DPI} dpi", STYLES["warning"]).append(f"; {aim}")
        out.print(line.append(f"  ({', '.join(users)})"))


def _card(w: float, h: float) -> str:
    """Return a card size as people name it: 'poker, 63.5 × 88.9 mm', or just the millimetres."""
    from ..impose.sizes import PRESETS, size_label

    named = [p for p in PRESETS.values() if abs(p.w - w) < 0.01 and abs(p.h - h) < 0.01]
    return size_label(named[0] if named else (w, h))


def _sessions(
    base: Path,
    game: str | None,
    out: Path,
    dpi: int,
    overlay: bool,
    paper: Paper,
    pdf: bool,
    players: int | None,
    missing_art: MissingArt | None,
) -> list[Session]:
    from ..iterate.session import Session

    papers = ["a4", "letter"] if paper is Paper.both else [paper.value]
    return [
        Session(
            base,
            gid,
            _out(out),
            dpi=dpi,
            overlay=overlay,
            papers=papers,
            players=players,
            missing_art=_policy(missing_art),
            pdfs=pdf,
            preview=True,  # never over a kit built with other options: OUT/<game>/preview/
        )
        for gid in _games(base, game)
    ]


def _games(base: Path, game: str | None) -> list[str]:
    """Return the games to work on; an unknown game is a located mistake now, not a watch on nothing."""
    from ..pipeline import resolve_games
    from ..project.locate import game_dir

    games = resolve_games(base, game)
    for game_id in games:
        game_dir(base, game_id)  # raises CardpressError (G001) with the games that exist
    return games


class Reporter:
    """Prints what each rebuild found and did; says when a game that failed builds again, and what was fixed."""

    def __init__(self) -> None:
        self.broken: dict[str, Report] = {}  # game id -> the report of its last failed rebuild
        self.warned: dict[str, set[Diagnostic]] = {}  # game id -> the warnings its last rebuild printed

    def __call__(self, session: Session, outcome: Outcome) -> None:
        """Print a rebuild's problems at once (each once), then one line saying what it did. A warning the
        game's previous rebuild printed is not printed again: the summary line still counts it."""
        from ..iterate.watch import describe
        from .console import print_line, print_problems, summary_style

        before = self.warned.get(session.game_id, set())
        warnings = {d for d in outcome.report.items if d.severity == "warning"}
        print_problems(Report([d for d in outcome.report.items if d not in before]))
        self.warned[session.game_id] = warnings
        unchanged = len(Report(list(warnings & before)).problems())
        if unchanged:
            plural = "s" if unchanged != 1 else ""
            print_line(f"{session.game_id}: {unchanged} warning{plural} as before, not repeated", "dim", err=True)
        failed = self.broken.pop(session.game_id, None)
        if not outcome.ok:
            self.broken[session.game_id] = outcome.report
        elif failed is not None:
            print_line(f"{session.game_id}: {fixed(failed)}, kit rebuilt", STYLE_FIXED)
        print_line(describe(session, outcome), summary_style(outcome.report), err=not outcome.ok)


STYLE_FIXED = "bold green"


def fixed(failed: Report) -> str:
    """Return `fixed: FILE:LINE:COL error[CODE]; …` for the errors of the last failed rebuild."""
    where = []
    for problem in failed.problems():
        d = problem.diagnostic
        if d.severity == "error":
            at = f"{d.loc.where()} " if d.loc else ""
            where.append(f"{at}error[{d.code}]" + (f" {d.path}" if d.path else ""))
    return "fixed: " + ("; ".join(where) or "the last failure")


def _out(out: Path) -> Path:
    return out if out.is_absolute() else Path.cwd() / out


def _policy(missing_art: MissingArt | None) -> str | None:
    return missing_art.value if missing_art else None


def register(app: typer.Typer) -> None:
    """Add the iterate commands to the main CLI."""
    from .examples import examples

    for command in (proof, watch, serve, art):
        app.command(epilog=examples(command.__name__))(command)
