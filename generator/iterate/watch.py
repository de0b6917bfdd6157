"""Watch a project's cards, layouts, fonts and art, and rebuild each game its changes feed."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from .session import Outcome, Session

Listener = Callable[[Session, Outcome], None]
QUIET_MS = 700  # no change for this long: write the PDFs the last rebuilds left due
TICK_MS = 50  # the watcher answers at least this often, so the quiet period is measured here


MAX_FOLDERS = 4096  # folders watched at most: each costs the system an inotify watch


def watched(root: Path) -> list[Path]:
    """Return the folders whose changes matter: cards/ (art included), layouts/ and fonts/."""
    return [p for p in (root / "cards", root / "layouts", root / "fonts") if p.is_dir()]


def folders(root: Path) -> list[Path]:
    """Return every real folder under the watched ones, each watched on its own.

    A link to a folder is never followed: a fan edition's link to a large system folder must not cost
    thousands of watches, nor tell us of changes outside the project. Loops cannot arise either.
    """
    found: list[Path] = []
    for top in watched(root):
        for here, dirs, _ in os.walk(top, followlinks=False):
            dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(here, d)))
            found.append(Path(here))
            if len(found) >= MAX_FOLDERS:
                return found
    return found


def rebuild_once(
    sessions: Sequence[Session], changed: Iterable[Path], listener: Listener, pdfs: bool | None = None
) -> list[Outcome]:
    """Rebuild every session that a change may feed; hand each outcome to `listener` as it comes."""
    changed = [Path(p) for p in changed]
    outcomes = []
    for session in sessions:
        if session.affected_by(changed):
            outcome = session.rebuild(changed, pdfs=pdfs)
            listener(session, outcome)
            outcomes.append(outcome)
    return outcomes


def write_due_pdfs(sessions: Sequence[Session], listener: Listener) -> None:
    """Write the kit PDFs that rebuilds left due."""
    for session in sessions:
        if session.pdfs_due:
            listener(session, session.write_pdfs())


def run(
    sessions: Sequence[Session],
    root: Path,
    listener: Listener,
    stop_event: threading.Event | None = None,
    debounce_ms: int = 80,
    quiet_ms: int = QUIET_MS,
) -> None:
    """Build every session, then rebuild on every change under the watched folders until `stop_event` is set.

    Each build of the whole project starts only once the watcher listens, so an edit made while it runs
    (or just after it says "up to date") is never missed. Proofs are redrawn at once; the kit PDFs are
    rewritten once no change has come for `quiet_ms`, so a burst of edits costs one PDF write.
    """
    import logging

    import watchfiles

    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # our own lines say what happened
    stop = stop_event if stop_event is not None else threading.Event()
    while not stop.is_set():
        # each real folder on its own, not recursively: the watcher would follow links to folders
        watching = folders(root)
        armed = False
        last_change = time.monotonic()
        for changes in watchfiles.watch(
            *watching,
            stop_event=stop,
            debounce=debounce_ms,
            step=20,
            raise_interrupt=False,
            rust_timeout=TICK_MS,
            yield_on_timeout=True,
            recursive=False,
        ):
            if not armed:  # the watcher listens from its first answer on: what came before, a full build sees
                armed = True
                rebuild_once(sessions, [root], listener, pdfs=False)
                continue
            if not changes:
                if time.monotonic() - last_change >= quiet_ms / 1000:
                    write_due_pdfs(sessions, listener)
                continue
            last_change = time.monotonic()
            changed = sorted({Path(path) for _, path in changes})
            if any(p.suffix.lower() == ".ttf" for p in changed):
                restart()  # ReportLab keeps a registered font for the life of the process
            rebuild_once(sessions, changed, listener, pdfs=False)
            if folders(root) != watching:
                break  # a folder came or went: watch the new set (and build in full, as edits may fall between)
        else:
            return  # stopped, or Ctrl-C


def restart() -> None:
    """Start this command afresh in the same process, so edited font files are read again."""
    print("font files changed: restarting", file=sys.stderr, flush=True)
    os.execv(sys.executable, [sys.executable, "-m", "generator", *sys.argv[1:]])


def describe(session: Session, outcome: Outcome) -> str:
    """Return one line saying what a rebuild did, for the terminal."""
    s = outcome.seconds
    stamp = time.strftime("%H:%M:%S")
    if "render" not in s and outcome.ok:
        return f"[{stamp}] {session.game_id}: kit PDFs written in {s.get('pdfs', 0):.2f} s"
    if not outcome.ok:
        return (
            f"[{stamp}] {session.game_id}: build failed ({outcome.report.summary()}); output keeps the last "
            f"good proofs and PDFs"
        )
    shown = s.get("render", 0) + s.get("proofs", 0)
    line = (
        f"[{stamp}] {session.game_id}: {_count(len(outcome.rendered), 'face')} re-rendered, "
        f"{_count(len(outcome.proofed), 'proof')} redrawn in {shown:.2f} s"
    )
    if "pdfs" in s:
        line += f"; PDFs in {s['pdfs']:.2f} s"
    return f"{line} ({outcome.report.summary()})"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
