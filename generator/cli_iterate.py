"""The commands for iterating on cards and art: proof, watch, serve and art (registered on the main CLI)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .cli import GameArg, MissingArt, MissingArtOpt, Paper, RootOpt, _root, _shown, echo_report, fail
from .diagnostics import Report

OutOpt = typer.Option(
    Path("output"),
    "--out",
    help="Folder to write into (proof: OUT/<game>/proofs/; watch and serve: OUT/<game>/preview/).",
)
PlayersOpt = typer.Option(None, "--players", help="Player count (default: the game's).")
DpiOpt = typer.Option(150, "--dpi", min=36, max=1200, help="Resolution of the proof images.")
OverlayOpt = typer.Option(False, "--overlay", help="Draw the trim (cyan), safe zone (magenta) and bleed edge.")
PaperOpt = typer.Option(Paper.both, "--paper", help="Paper size of the kit PDFs.")
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
    from .iterate.session import Session

    base = _root(root)
    total = Report()
    games = _games(base, game)
    if card and not game:
        total.error(
            "P002", "--card needs a game", hint=f"e.g. cardpress proof {games[0] if games else 'GAME'} --card {card[0]}"
        )
        fail(total)
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
        outcome = session.rebuild(only=card or None)
        total.extend(outcome.report.items)
        if outcome.ok and outcome.entries:
            redrawn = len(outcome.proofed)
            typer.echo(
                f"{game_id}: {len(outcome.entries)} proofs in {_shown(session.proofs.folder)}/ "
                f"({redrawn} redrawn, {len(outcome.entries) - redrawn} unchanged) in "
                f"{outcome.seconds['total']:.2f} s"
            )
    if not total.ok():
        fail(total)
    echo_report(total)


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
    from .iterate import watch as watcher

    base = _root(root)
    sessions = _sessions(base, game, out, dpi, overlay, paper, pdf, players, missing_art)
    typer.echo(f"watching {', '.join(_shown(p) + '/' for p in watcher.watched(base))} (Ctrl-C stops)")
    try:
        watcher.rebuild_once(sessions, [base], _print, pdfs=False)
        watcher.run(sessions, base, _print)  # returns on Ctrl-C while waiting
    except KeyboardInterrupt:  # Ctrl-C in the middle of a rebuild: outputs are written atomically
        pass
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
    from .iterate import watch as watcher
    from .iterate.serve import PreviewServer

    base = _root(root)
    sessions = _sessions(base, game, out, dpi, overlay, paper, pdf, players, missing_art)
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
        watcher.rebuild_once(sessions, [base], _print, pdfs=False)
        watcher.run(sessions, base, _print)  # returns on Ctrl-C while waiting
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
    from .art.make import make_missing as write_stand_ins
    from .pipeline import Pipeline, resolve_games

    base = _root(root)
    total = Report()
    for game_id in resolve_games(base, game):
        pipeline = Pipeline(base, game_id, players=players, missing_art="placeholder")
        faces, pages = pipeline.layout(), pipeline.pages()
        total.extend(pipeline.report.items)
        loaded, studio = pipeline.load(), pipeline.studio()
        if faces is None or loaded is None or studio is None:
            continue
        everything = [p for p in (*faces.values(), *pages.values()) if p is not None]
        if make_missing:
            for path in write_stand_ins(everything, studio.fonts, studio.icons, dpi):
                typer.echo(f"wrote {_shown(path)}")
        else:
            _list_art(game_id, everything, loaded.dir.folder.resolve())
    if not total.ok():
        fail(total)
    echo_report(total)


def _list_art(game_id: str, faces, folder: Path) -> None:
    """Print one line per art file: pixels, resolution at print size, and the faces that use it."""
    from .art.place import PRINT_DPI

    rows: dict[str, list] = {}
    for prepared in faces:
        for placed in prepared.images.values():
            name = str(placed.file.relative_to(folder)) if placed.file else "(none)"
            rows.setdefault(name, [placed, []])[1].append(prepared.doc.face)
    typer.echo(f"{game_id}: {len(rows)} art files")
    for name, (placed, users) in sorted(rows.items()):
        if placed.art is None:
            what = "missing: a stand-in is drawn"
        else:
            dpi = placed.fit.min_dpi
            verdict = "ok" if dpi >= PRINT_DPI - 0.5 else "below 300 dpi"
            what = f"{placed.art.kind.upper()} {placed.art.size[0]} × {placed.art.size[1]} px, {dpi:.0f} dpi, {verdict}"
        typer.echo(f"  {name:32} {what}  ({', '.join(users)})")


def _sessions(base, game, out, dpi, overlay, paper, pdf, players, missing_art):
    from .iterate.session import Session

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
    from .pipeline import resolve_games
    from .project import game_dir

    games = resolve_games(base, game)
    for game_id in games:
        game_dir(base, game_id)  # raises CardpressError (G001) with the games that exist
    return games


def _print(session, outcome) -> None:
    """Print a rebuild's diagnostics at once, then what it did."""
    from .iterate.watch import describe

    echo_report(outcome.report)
    typer.echo(describe(session, outcome))


def _out(out: Path) -> Path:
    return out if out.is_absolute() else Path.cwd() / out


def _policy(missing_art) -> str | None:
    return missing_art.value if missing_art else None


def register(app: typer.Typer) -> None:
    """Add the iterate commands to the main CLI."""
    for command in (proof, watch, serve, art):
        app.command()(command)
