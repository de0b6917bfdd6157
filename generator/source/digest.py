"""Content digests of input files, memoized by file stamp so unchanged files are hashed once."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

_MEMO: dict[str, tuple[tuple[int, int, int], str]] = {}


def file_digest(path: Path) -> str | None:
    """Return the SHA-256 of a file's bytes, or None when it does not exist or cannot be read."""
    key = os.fspath(path)
    try:
        st = os.stat(key)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):  # a FIFO or device would block or never end; they are refused where read
        return None
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    known = _MEMO.get(key)
    if known and known[0] == stamp:
        return known[1]
    try:
        with open(key, "rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None
    _MEMO[key] = (stamp, digest)
    return digest


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
