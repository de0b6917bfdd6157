"""Read a game's files safely: regular files inside the allowed folders only, capped in size before reading."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from ..diagnostics import Location, Report

Roots = Sequence[Path]

# What a special file is called in messages; they are refused before they are opened (a FIFO would hang).
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)
_REASONS: dict[int | None, tuple[str, str, str | None]] = {
    errno.ELOOP: ("Y007", "it is a loop of symbolic links", "point the link at a real file, or replace it with one"),
    errno.ENAMETOOLONG: ("Y007", "its name is too long for the file system", "use a shorter file name"),
    errno.EACCES: ("Y007", "permission denied", "make the file readable"),
    errno.EPERM: ("Y007", "permission denied", "make the file readable"),
}
_CHUNK = 1 << 20


class Refused(Exception):
    """A file cardpress will not read: a diagnostic code, the reason in words, and a hint."""

    def __init__(self, code: str, reason: str, hint: str | None = None):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.hint = hint

    def message(self, display: str) -> str:
        """Return the message for the file shown as `display`."""
        if self.code == "Y004":
            return f"file not found: {display}"
        if self.code in ("Y001", "Y003"):  # encoding and size: the location names the file already
            return self.reason
        return f"cannot read {display}: {self.reason}"

    def report(self, report: Report, display: str, loc: Location | None = None, path: str = "") -> None:
        """Record this refusal as an error located at the file (or at `loc`, where the file was named)."""
        where = loc if loc is not None else Location(display, 1, 1)
        report.error(self.code, self.message(display), path=path, loc=where, hint=self.hint)


def project_root(path: Path) -> Path:
    """Return the folder a file may be read from by default: the nearest one above it holding `cards/`.

    Found from the path as written (links not followed), so a link cannot widen it; a file in no
    project may be read from its own folder only.
    """
    here = Path(os.path.abspath(path)).parent
    for folder in (here, *here.parents):
        if (folder / "cards").is_dir():
            return folder
    return here


def inside(real: str, roots: Roots) -> bool:
    """Return True when the resolved path `real` lies in (or is) one of the roots, themselves resolved."""
    for root in roots:
        base = os.path.realpath(root)
        if real == base or real.startswith(base.rstrip(os.sep) + os.sep):
            return True
    return False


def check(path: Path | str, roots: Roots | None = None, where: str = "the project") -> tuple[str, os.stat_result]:
    """Resolve `path` (links included) and return (real path, stat) when it is a regular file in a root.

    Raise Refused otherwise: missing, a folder or special file, a link leading outside, a loop, a name
    the file system refuses. `where` names the roots in messages.
    """
    raw = os.fspath(path)
    if "\0" in raw:
        raise Refused("Y007", "the file name contains a NUL character", "remove the control character from the name")
    try:
        real = os.path.realpath(raw, strict=True)
        st = os.stat(real)
    except FileNotFoundError:
        raise Refused("Y004", "file not found") from None
    except NotADirectoryError:
        raise Refused("Y004", "file not found", "a folder in its path is a file") from None
    except OSError as exc:
        code, reason, hint = _REASONS.get(exc.errno, ("Y007", exc.strerror or "unreadable", None))
        raise Refused(code, reason, hint) from None
    except ValueError:  # a name the file system cannot even encode (a lone surrogate, say)
        raise Refused("Y007", "the file name is not valid text", "rename the file") from None
    if not inside(real, roots if roots is not None else (project_root(Path(raw)),)):
        raise Refused(
            "Y006",
            f"it is a link to a file outside {where}",
            f"cardpress reads only files inside {where}; copy the file in instead of linking to it",
        )
    for test, kind in _KINDS:
        if test(st.st_mode):
            raise Refused("Y005", f"it is {kind}, not a file", "replace it with a regular file")
    return real, st


def read_bytes(path: Path | str, cap: int, roots: Roots | None = None, where: str = "the project") -> bytes:
    """Return the bytes of a regular file inside the roots, refusing files over `cap` bytes unread."""
    real, st = check(path, roots, where)
    if st.st_size > cap:
        raise Refused("Y003", f"file is {st.st_size} bytes; the limit is {cap}")
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        code, reason, hint = _REASONS.get(exc.errno, ("Y007", exc.strerror or "unreadable", None))
        raise Refused(code, reason, hint) from None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise Refused("Y007", "it changed while being opened", "try again")
        chunks, size = [], 0
        while size <= cap:  # read at most cap + 1 bytes: a file growing past the cap is refused too
            chunk = os.read(fd, min(_CHUNK, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise Refused("Y007", exc.strerror or "unreadable") from None
    finally:
        os.close(fd)
    if size > cap:
        raise Refused("Y003", f"file is more than {cap} bytes; the limit is {cap}")
    return b"".join(chunks)


def read_text(path: Path | str, cap: int, roots: Roots | None = None, where: str = "the project") -> str:
    """Return the UTF-8 text of a regular file inside the roots; Refused (code Y001) when it is not text."""
    data = read_bytes(path, cap, roots, where)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused("Y001", f"file is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_text_or_report(
    path: Path | str, display: str, cap: int, report: Report, roots: Roots | None = None
) -> str | None:
    """Return a text file's contents, or None after reporting why it cannot be read (one call for callers)."""
    try:
        return read_text(path, cap, roots)
    except Refused as exc:
        exc.report(report, display)
        return None


def is_regular(path: Path | str) -> bool:
    """Return True when `path` (links followed) is a regular file: safe to open without hanging."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False
