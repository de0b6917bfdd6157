"""Where cardpress keeps work it can reuse between runs (compiled templates and schemas, laid-out faces)."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
from pathlib import Path


def folder(kind: str) -> Path | None:
    """Return a writable cache folder for `kind`, or None when caching is off or impossible.

    CARDPRESS_CACHE names the folder (or is `off`); otherwise $XDG_CACHE_HOME/cardpress or
    ~/.cache/cardpress. Caches only ever speed things up: every entry is keyed by what it was made from.
    """
    setting = os.environ.get("CARDPRESS_CACHE", "")
    if setting.lower() == "off":
        return None
    base = Path(setting) if setting else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardpress"
    path = base / kind
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None


def write(path: Path, data: bytes) -> None:
    """Write a cache file atomically, so a reader never sees half of it; a failure only loses the entry."""
    tmp = path.with_suffix(f"{path.suffix}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def trim(kind: str, limit: int) -> int:
    """Delete the least recently used entries of a cache until it holds at most `limit` bytes; return how many."""
    where = folder(kind)
    if where is None:
        return 0
    entries = []
    with os.scandir(where) as found:
        for entry in found:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            entries.append((st.st_mtime_ns, entry.name, st.st_size))
    total, removed = sum(size for *_, size in entries), 0
    for _, name, size in sorted(entries):  # oldest first: a hit touches its entry
        if total <= limit:
            break
        try:
            (where / name).unlink()
        except OSError:
            continue
        total -= size
        removed += 1
    return removed


def touch(path: Path) -> None:
    """Mark a cache entry as just used, so `trim` keeps it longest."""
    with contextlib.suppress(OSError):
        os.utime(path)


@functools.cache
def code_digest() -> str:
    """Return a digest of cardpress's own code and the libraries that decide a layout: part of every face's key."""
    import PIL
    import reportlab

    h = hashlib.sha256(f"{sys.implementation.cache_tag}\0{reportlab.Version}\0{PIL.__version__}\0".encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*")):  # stamps, not contents: any edit or checkout changes them
        if path.suffix in (".py", ".yaml", ".json") and "__pycache__" not in path.parts:
            st = path.stat()
            h.update(f"{path.relative_to(package).as_posix()}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()
