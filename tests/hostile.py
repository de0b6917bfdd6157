"""Helpers for the hostile-input suite: run the CLI in-process, measure memory, guard against hangs."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

SECRET = "TOPSECRET-4f1c9e"  # text that must never reach a diagnostic, a PDF or a proof
GAME = Path("cards") / "pocket-foundry"


def cli(*args: str) -> tuple[int, str, str]:
    """Run `cardpress ARGS` through generator.cli.main in this process; return (exit code, stdout, stderr)."""
    from generator.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["cardpress", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


def headlines(stderr: str) -> list[str]:
    """Return the first line of every diagnostic in a CLI's stderr."""
    return [line for line in stderr.splitlines() if "error[" in line or "warning[" in line]


@contextlib.contextmanager
def peak_memory() -> Iterator[list[int]]:
    """Measure the peak of Python allocations inside the block; the list holds it (bytes) afterwards."""
    result: list[int] = []
    tracemalloc.start()
    try:
        yield result
    finally:
        result.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()


@contextlib.contextmanager
def fifo(path: Path, seconds: float = 20) -> Iterator[list[bool]]:
    """Make `path` a FIFO; should the code under test open it and wait for a writer, release it and record that.

    The list holds True afterwards if anything blocked on the FIFO: a hang becomes a failing assertion.
    """
    if path.exists() or path.is_symlink():
        path.unlink()
    os.mkfifo(path)
    blocked: list[bool] = []
    done = threading.Event()

    def release() -> None:
        while not done.wait(seconds):
            try:  # succeeds only when a reader is waiting on the other end
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                continue
            blocked.append(True)
            os.close(fd)

    watcher = threading.Thread(target=release, daemon=True)
    watcher.start()
    try:
        yield blocked
    finally:
        done.set()
        watcher.join()


def relink(path: Path, target: Path | str) -> None:
    """Replace `path` with a symbolic link to `target`."""
    if path.exists() or path.is_symlink():
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()
    path.symlink_to(target)
