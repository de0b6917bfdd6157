"""Write results to disk atomically: one file, or a whole set that appears together or not at all."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..diagnostics import CardpressError, Report
from . import guard

TEMP_PREFIX = ".cardpress-"  # every temporary file we make starts with this and its process id
STALE_SECONDS = 24 * 3600  # older than this, a temporary file is stale even if its process id is in use again
PAUSE_ENV = "CARDPRESS_TEST_PAUSE_AFTER_TEMP"  # seconds to wait after each temporary file (tests kill us there)
_TEMP = re.compile(rf"^{re.escape(TEMP_PREFIX)}(\d+)-.+\.tmp$")

# What an OSError on writing means for the user: the reason in words and what to do about it.
_WRITE_REASONS = {
    errno.ENOSPC: ("the disk is full", "free some space, then run again"),
    errno.EDQUOT: ("the disk quota is used up", "free some space, then run again"),
    errno.EROFS: ("the file system is read-only", "choose a folder you can write to with --out"),
    errno.EACCES: ("permission denied", "choose a folder you can write to with --out, or change its permissions"),
    errno.EPERM: ("permission denied", "choose a folder you can write to with --out, or change its permissions"),
    errno.ENAMETOOLONG: ("its name is too long for the file system", "choose a shorter --out folder or game name"),
    errno.EISDIR: ("a folder of that name is in the way", "move the folder away, or choose another --out"),
    errno.ELOOP: ("it is a loop of symbolic links", "choose another --out, or point the link at a real folder"),
}


def write_atomic(path: Path, data: bytes, *, root: guard.Roots, sync: bool = True) -> Path:
    """Write `data` to `path` (inside `root`) through a temporary file, so a reader never sees half a file."""
    return write_all({path: data}, root=root, sync=sync)[0]


def write_all(
    files: Mapping[Path, bytes] | Iterable[tuple[Path, bytes]],
    remove: Iterable[Path] = (),
    *,
    root: guard.Roots,
    sync: bool = True,
) -> list[Path]:
    """Write every file to a temporary name first; rename them into place only once all are complete.

    Every path must lie inside `root` (the project, a game folder or the chosen output folder) and no part
    of it below the root may be a link (guard.py): a refused path is a located O002 error, and nothing is
    created, not even a folder. `sync=False` skips the flush to disk (caches, which may lose an entry).

    `files` maps paths to contents, or yields (path, contents) pairs: each is written to its temporary file
    as it comes, so a large set (proofs) need not be held in memory at once.
    A failure (a full disk, a read-only folder) or a kill before the renames leaves every previous file whole;
    temporary files left by a killed run are removed by the next run that writes into the same folder. Files
    in `remove` (outputs the new set no longer has) are deleted with the renames. Ctrl-C waits for the
    renames. A failure is raised as a CardpressError naming the path and what to do (nothing is left behind).

    A set of several files is switched by a journal: once every file is staged, the list of renames is
    written (atomically) to the root, then carried out, then deleted. A kill during the renames (the A4 kit
    renamed, the Letter one not yet) leaves the journal, and the next run writing into (or checking) the
    root finishes them first: a set is never left mixed once cardpress runs there again.
    """
    staged: list[tuple[str, Path]] = []
    made: list[Path] = []  # folders this call created, removed again should it fail
    pause = float(os.environ.get(PAUSE_ENV) or 0) if sync else 0.0  # outputs: a cache write is never where a test stops
    current: Path | None = None
    remove = list(remove)
    _refuse([*files, *remove] if isinstance(files, Mapping) else remove, root)
    journal: Path | None = None
    done = False
    try:
        cleared: set[Path] = set()
        for path, data in files.items() if isinstance(files, Mapping) else files:
            current = path
            _refuse([path], root)
            made += _make_folder(path.parent)
            _refuse([path], root)  # again, now the folders exist: nothing swapped one for a link meanwhile
            if path.is_dir():  # found now, not halfway through the renames
                raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
            if not cleared:  # before any stale file is cleared: a killed run's staged set may be finished
                finish_sets(Path(guard.base_of(path, root)))
            if path.parent not in cleared:
                clear_stale(path.parent)
                cleared.add(path.parent)
            fd, tmp = tempfile.mkstemp(
                prefix=f"{TEMP_PREFIX}{os.getpid()}-{path.name[:40]}.", suffix=".tmp", dir=path.parent
            )
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                if sync:
                    os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)  # mkstemp makes files private; what we write is for sharing
            if pause:
                time.sleep(pause)
        written = [path for _, path in staged]
        with _sigint_deferred():  # renames within one folder are atomic and do not fail for lack of space
            if len(staged) + len(remove) > 1:
                base = Path(guard.base_of(staged[0][1] if staged else remove[0], root))
                journal = _journal(base, staged, remove)  # the commit point: from here the new set wins
            for tmp, path in staged:
                current = path
                os.replace(tmp, path)
            staged = []
            for path in remove:
                path.unlink(missing_ok=True)
            if journal is not None:
                journal.unlink()
        done = True
    except OSError as exc:
        raise CardpressError(write_problem(exc, current)) from None
    finally:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        if not done:
            for folder in reversed(made):
                with contextlib.suppress(OSError):
                    folder.rmdir()  # only ever empty folders this call made
    return written


JOURNAL = re.compile(rf"^{re.escape(TEMP_PREFIX)}set-(\d+)\.json$")


def _journal(base: Path, staged: list[tuple[str, Path]], remove: list[Path]) -> Path:
    """Write (durably) the renames and removals that switch a set, relative to `base`; return its path."""
    renames = [[os.path.relpath(t, base), os.path.relpath(p, base)] for t, p in staged]
    text = json.dumps({"renames": renames, "remove": [os.path.relpath(p, base) for p in remove]})
    path = base / f"{TEMP_PREFIX}set-{os.getpid()}.json"
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-journal.", suffix=".tmp", dir=base)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    return path


def finish_sets(base: Path) -> list[Path]:
    """Finish the switches that killed runs left half done in `base` (see write_all); return the files renamed."""
    try:
        found = [e for e in os.scandir(base) if JOURNAL.match(e.name)]
    except OSError:
        return []
    done: list[Path] = []
    for entry in found:
        pid = int(entry.name.split("-")[-1].split(".")[0])  # matched JOURNAL just above
        if pid == os.getpid() or _alive(pid):
            continue  # still switching (or ours): not to be touched
        try:
            plan = json.loads(Path(entry.path).read_text(encoding="utf-8"))
            renames = [(base / t, base / p) for t, p in plan["renames"]]
            removals = [base / p for p in plan["remove"]]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if any(guard.problem(p, base) for pair in renames for p in pair) or any(
            guard.problem(p, base) for p in removals
        ):
            continue  # a journal naming paths outside its folder is none of ours
        for tmp, path in renames:
            if tmp.is_file():
                os.replace(tmp, path)
                done.append(path)
        for path in removals:
            path.unlink(missing_ok=True)
        Path(entry.path).unlink(missing_ok=True)
    return done


def _refuse(paths: Iterable[Path], root: guard.Roots) -> None:
    """Raise a CardpressError of O002 errors if any path may not be written (a link, or outside the root)."""
    report = guard.refuse(list(paths), root)
    if not report.ok():
        raise CardpressError(report)


def check_folder(folder: Path) -> None:
    """Raise the CardpressError a write into `folder` would meet, found before any work: a file of that name, a
    name too long for the file system, a loop of links."""
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        return  # made when written
    except OSError as exc:
        raise CardpressError(write_problem(exc, folder)) from None
    if not stat.S_ISDIR(st.st_mode):
        raise CardpressError(write_problem(NotADirectoryError(errno.ENOTDIR, "not a directory", str(folder)), folder))
    finish_sets(folder)  # a set a killed run left half switched is whole again before anything reads it


def write_problem(exc: OSError, path: Path | None) -> Report:
    """Return a report of one error saying which path could not be written, why, and what to do."""
    target = (
        Path(exc.filename) if isinstance(exc.filename, str) and exc.errno in (errno.ENOTDIR, errno.EEXIST) else path
    )
    if exc.errno in (errno.ENOTDIR, errno.EEXIST) and target is not None:
        blocker = next((p for p in (target, *target.parents) if p.exists() and not p.is_dir()), target)
        path = blocker
        reason, hint = (
            "it is a file, not a folder",
            "--out must name a folder: remove or rename that file, or choose another folder",
        )
    else:
        reason, hint = _WRITE_REASONS.get(exc.errno or 0, (exc.strerror or str(exc), "check the output folder"))
    report = Report()
    where = guard.shown(path) if path is not None else "the output"
    into = "into " if exc.errno in (errno.ENOTDIR, errno.EEXIST) else ""
    report.error(
        "O001", f"cannot write {into}{where}: {reason}", hint=f"{hint}; the previous files were left as they were"
    )
    return report


def _make_folder(folder: Path) -> list[Path]:
    """Create `folder` and its parents, returning those it made, outermost first; a file in the way is ENOTDIR."""
    missing = [f for f in (folder, *folder.parents) if not os.path.lexists(f)][::-1]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError as exc:  # a file where a folder must be
        raise NotADirectoryError(errno.ENOTDIR, "not a directory", exc.filename or str(folder)) from None
    except OSError:
        for made in reversed(missing):
            with contextlib.suppress(OSError):
                made.rmdir()
        raise
    return missing


def clear_stale(folder: Path) -> None:
    """Remove the temporary files in `folder` that a killed run left behind (its process is gone)."""
    limit = time.time() - STALE_SECONDS
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        match = _TEMP.match(entry.name)
        if not match or int(match.group(1)) == os.getpid():
            continue
        try:
            if entry.is_file(follow_symlinks=False) and (
                not _alive(int(match.group(1))) or entry.stat(follow_symlinks=False).st_mtime < limit
            ):
                os.unlink(entry.path)
        except OSError:
            pass  # gone already, or not ours to remove


def _alive(pid: int) -> bool:
    """Return True if a process with this id exists (it may be another run writing right now)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but belongs to someone else
    return True


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold Ctrl-C back for the moment of renaming, then deliver it (a set is never half renamed by it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[Any] = []
    previous = signal.signal(signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt
