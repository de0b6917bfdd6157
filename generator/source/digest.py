"""Content digests of input files, memoized by file stamp so unchanged files are hashed once.

A large file's digest is also kept on disk between runs, by the same stamp (as git's index keeps a file's):
hashing the shipped fonts' 11 MB took 324 M instructions, a third of a Pocket Foundry rebuild's own work.
"""

from __future__ import annotations

import atexit
import hashlib
import marshal
import os
import stat
import time
from collections.abc import Iterable
from pathlib import Path

_MEMO: dict[str, tuple[tuple[int, int, int, int], str]] = {}
KEPT_FROM = 256 * 1024  # bytes: a file this large has its digest kept on disk (hashing one costs more than a lookup)
KEPT_FILES = 4096  # large files whose digests the disk keeps: the most recently hashed
RACY_NS = 2_000_000_000  # a file changed this recently may change again within its stamp's resolution: not kept
_kept: dict[str, tuple[tuple[int, ...], str]] | None = None  # the disk's memo, read on first need
_new: dict[str, tuple[tuple[int, ...], str]] = {}  # digests to add to it at exit


def _kept_memo() -> dict[str, tuple[tuple[int, ...], str]]:
    """Return the digests of large files kept on disk by earlier runs (nothing when caching is off)."""
    global _kept
    if _kept is None:
        from ..project import cache as disk  # here, not at import: the project package imports this module

        where = disk.folder("digests")
        data = disk.read(where / "large-files.marshal") if where is not None else None
        try:
            _kept = marshal.loads(data) if data else {}
        except (EOFError, ValueError, TypeError):  # an entry from another Python: start again
            _kept = {}
        if not isinstance(_kept, dict):
            _kept = {}
    return _kept


@atexit.register
def _keep() -> None:
    """Add the large files hashed in this run to the disk's memo."""
    if not _new:
        return
    from ..project import cache as disk

    where = disk.folder("digests")
    if where is not None:
        memo = {**_kept_memo(), **_new}
        disk.write(where / "large-files.marshal", marshal.dumps(dict(list(memo.items())[-KEPT_FILES:])))


def file_digest(path: Path) -> str | None:
    """Return the SHA-256 of a file's bytes, or None when it does not exist or cannot be read."""
    key = os.fspath(path)
    try:
        st = os.stat(key)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):  # a FIFO or device would block or never end; they are refused where read
        return None
    known = _known(key, st)
    if known is not None:
        return known
    try:
        with open(key, "rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None
    _MEMO[key] = stamped = (_stamp(st), digest)
    if st.st_size >= KEPT_FROM and not _racy(st):
        _new[os.path.abspath(key)] = stamped
    return digest


def known_digest(path: Path) -> str | None:
    """Return the digest `file_digest` took of a file under its present stamp (in this run, or kept on disk),
    without reading the file; None when there is none, or when the file changed so lately that a change
    since may not show in its stamp."""
    key = os.fspath(path)
    try:
        st = os.stat(key)
    except (OSError, ValueError):
        return None
    return None if _racy(st) else _known(key, st)


def _known(key: str, st: os.stat_result) -> str | None:
    stamp = _stamp(st)
    known = _MEMO.get(key)
    if known and known[0] == stamp:
        return known[1]
    if st.st_size >= KEPT_FROM:
        kept = _kept_memo().get(os.path.abspath(key))  # the disk's memo outlives the working folder
        if kept and kept[0] == stamp:
            _MEMO[key] = (stamp, kept[1])
            return kept[1]
    return None


def _stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    """Return what says a file is unchanged: its modification time, size, inode and, as git's index, its
    change time (a copy put back with its old times is new)."""
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns)


def _racy(st: os.stat_result) -> bool:
    """Return True for a file changed within the last RACY_NS: it may change again within its stamp's resolution."""
    return st.st_mtime_ns >= time.time_ns() - RACY_NS


def files_digest(paths: Iterable[Path]) -> str:
    """Return one digest for several files: their names and contents, in the order given.

    Only the base name goes in, not the folder, so a moved checkout keeps its digests.
    """
    h = hashlib.sha256()
    for path in paths:
        h.update(Path(path).name.encode("utf-8", "surrogateescape") + b"\0")
        h.update((file_digest(path) or "-").encode() + b"\0")
    return h.hexdigest()


def text_digest(*parts: str, start: hashlib._Hash | None = None) -> str:
    """Return the SHA-256 of some strings, kept apart so that ('ab', 'c') differs from ('a', 'bc'); with `start`
    (a `text_hash` of the first parts), the digest of those parts and then these."""
    return text_hash(*parts, start=start).hexdigest()


def text_hash(*parts: str, start: hashlib._Hash | None = None) -> hashlib._Hash:
    """Return the running hash `text_digest` finishes: one taken once for parts many digests begin with."""
    h = hashlib.sha256() if start is None else start.copy()
    for part in parts:
        h.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return h
