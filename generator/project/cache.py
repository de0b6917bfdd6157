"""Where cardpress keeps work it can reuse between runs (compiled templates and schemas, laid-out faces)."""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import importlib.util
import os
import sqlite3
import sys
import time
import zlib
from collections.abc import Sequence
from pathlib import Path

from ..diagnostics import CardpressError
from . import guard
from .output import write_atomic


def folder(kind: str) -> Path | None:
    """Return a writable cache folder for `kind`, or None when caching is off or impossible.

    CARDPRESS_CACHE names the folder (or is `off`); otherwise $XDG_CACHE_HOME/cardpress or
    ~/.cache/cardpress. Caches only ever speed things up: every entry is keyed by what it was made from.
    """
    setting = os.environ.get("CARDPRESS_CACHE", "")
    if setting.lower() == "off":
        return None
    base = _base()
    path = base / kind
    if guard.problem(path, base) is not None:  # a link where a cache folder should be: no cache
        return None
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None


def _base() -> Path:
    setting = os.environ.get("CARDPRESS_CACHE", "")
    return Path(setting) if setting else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardpress"


def write(path: Path, data: bytes) -> None:
    """Write a cache file atomically through the guarded writer, sealed with its checksum; a failure (a full
    disk, a link in the way) only loses the entry."""
    with contextlib.suppress(CardpressError):
        write_atomic(path, _seal(data) + data, root=_base(), sync=False)


def read(path: Path) -> bytes | None:
    """Return what `write` stored at `path`, or None when it is missing, unreadable, torn or damaged."""
    try:
        sealed = path.read_bytes()
    except OSError:
        return None
    data = sealed[_SEAL:]
    return data if len(sealed) >= _SEAL and _seal(data) == sealed[:_SEAL] else None


# The seal finds a torn or damaged file, not a forged one: whoever can write the user's cache can write their
# code too. A CRC-32 does that at a seventh of SHA-256's cost (the methods file alone is 0.8 MB, read by every run).
_SEAL = 4  # bytes of checksum before every cache file's contents


def _seal(data: bytes) -> bytes:
    return zlib.crc32(data).to_bytes(_SEAL, "big")


class Shelf:
    """Byte strings by key in one SQLite file, for caches of many small entries.

    One file rather than a file per entry: creating thousands of small files cost more system time than
    laying the faces out. The database is in WAL mode (readers never wait for a writer) and a process
    never holds a write open: entries wait in memory and go in with one short transaction per BATCH (and
    at `flush`), so a long-lived process (`watch`, `serve`, a benchmark) never locks a `build` out. A
    locked, torn or unreadable database only ever means a miss.

    The keys stored are read once, at the first `get` (and kept up with what this process writes), so a key
    that is not there costs no query: a first build asks for every face and finds none. A key another
    process writes after that is a miss here, as a locked database is.
    """

    BATCH = 64  # entries written in one transaction
    KNOWN_MAX = 20_000  # keys read at once; past this many (a cache of ~60 MB), every `get` asks the database

    def __init__(self, path: Path) -> None:
        self.used: set[str] = set()
        self.pending: dict[str, bytes] = {}  # stored, not written yet
        self.known: set[str] | None = None  # the keys stored; None: not read yet
        self.asks = False  # True once the keys were too many to keep: every get asks the database
        self.db: sqlite3.Connection | None = None
        try:
            self.db = sqlite3.connect(path, timeout=2.0, isolation_level=None)
            # Pages four times the default when the file is made (a no-op after): a first build's faces go to
            # disk in under a quarter of the writes, each a system call that costs more CPU time than its bytes.
            self.db.execute("PRAGMA page_size=16384")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # a cache: losing the last writes to a crash is fine
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value BLOB NOT NULL, used INTEGER NOT NULL)"
            )
        except sqlite3.Error:
            self._broken()

    def get(self, key: str) -> bytes | None:
        """Return the entry stored under `key`, or None."""
        if key in self.pending:
            return self.pending[key]
        if self.db is None or not self._may_hold(key):
            return None
        try:
            row = self.db.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        self.used.add(key)
        return bytes(row[0])

    def _may_hold(self, key: str) -> bool:
        """Return False when `key` is surely not stored; the keys are read with one query the first time
        (from the key's index alone, not the values)."""
        if self.known is None:
            assert self.db is not None
            try:
                rows = self.db.execute("SELECT key FROM entries LIMIT ?", (self.KNOWN_MAX + 1,)).fetchall()
            except sqlite3.Error:  # locked or torn: every key a miss, as the query for it would have been
                rows = []
            self.asks = len(rows) > self.KNOWN_MAX
            self.known = set() if self.asks else {key for (key,) in rows}
        return self.asks or key in self.known

    def put(self, key: str, value: bytes) -> None:
        """Store an entry; it is written with the others of its batch, or at the next `flush`."""
        if self.db is None:
            return
        self.pending[key] = value
        if len(self.pending) >= self.BATCH:
            self._write(())

    def flush(self) -> None:
        """Write what was stored, and mark what was read as just used."""
        if self.db is None:
            return
        now = time.time_ns()
        self._write([(now, k) for k in sorted(self.used)])
        self.used = set()

    def _write(self, marks: Sequence[tuple[int, str]]) -> None:
        """Write the pending entries (and the `used` marks) in one short transaction; on a lock, lose them."""
        entries, self.pending = self.pending, {}
        if self.db is None or not (entries or marks):
            return
        now = time.time_ns()
        try:
            self.db.execute("BEGIN IMMEDIATE")  # take the write lock now, for a transaction that is over at once
            try:
                self.db.executemany(
                    "INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", [(k, v, now) for k, v in entries.items()]
                )
                self.db.executemany("UPDATE entries SET used = ? WHERE key = ?", marks)
                self.db.execute("COMMIT")
            except sqlite3.Error:
                self.db.execute("ROLLBACK")
                raise
            if self.known is not None and not self.asks:
                self.known.update(entries)
        except sqlite3.OperationalError:  # locked past the timeout (or the disk is full): these entries are misses
            return
        except sqlite3.Error:
            self._broken()

    def trim(self, limit: int) -> int:
        """Delete the least recently used entries until at most `limit` bytes are kept; return how many."""
        self.flush()
        if self.db is None:
            return 0
        try:
            total = self.db.execute("SELECT COALESCE(SUM(LENGTH(value)), 0) FROM entries").fetchone()[0]
            if total <= limit:
                return 0
            doomed, over = [], total - limit
            for key, size in self.db.execute("SELECT key, LENGTH(value) FROM entries ORDER BY used, key"):
                if over <= 0:
                    break
                doomed.append((key,))
                over -= size
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("DELETE FROM entries WHERE key = ?", doomed)
            self.db.execute("COMMIT")
            if self.known is not None:
                self.known.difference_update(key for (key,) in doomed)
            return len(doomed)
        except sqlite3.OperationalError:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            return 0
        except sqlite3.Error:
            self._broken()
            return 0

    def _broken(self) -> None:
        """Stop using a database that failed (torn, not a database)."""
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
        self.db = None


_SHELVES: dict[Path, Shelf] = {}


def shelf(kind: str) -> Shelf | None:
    """Return the process's shelf for a kind of cache entry (one per cache folder), or None when caching is off."""
    where = folder(kind)
    if where is None:
        return None
    path = where / f"{kind}.sqlite3"
    if any(guard.problem(where / f"{path.name}{end}", _base()) for end in ("", "-wal", "-shm")):
        return None  # SQLite would write through a link
    if path not in _SHELVES:
        _SHELVES[path] = Shelf(path)
    return _SHELVES[path]


def trim(kind: str, limit: int) -> None:
    """Write what the shelf of `kind` holds, then drop its least recently used entries past `limit` bytes."""
    found = shelf(kind)
    if found is not None:
        found.trim(limit)


@atexit.register
def _flush_all() -> None:
    for open_shelf in _SHELVES.values():
        open_shelf.flush()


@functools.cache
def code_digest() -> str:
    """Return a digest of cardpress's own code and the libraries that decide a layout: part of every face's key."""
    import PIL
    import reportlab

    h = hashlib.sha256(f"{sys.implementation.cache_tag}\0{reportlab.Version}\0{PIL.__version__}\0".encode())
    files = code_files(Path(__file__).resolve().parent.parent)  # the whole generator package
    # PyYAML by its files too: found, not imported, since a rebuild of unchanged files never loads it.
    spec = importlib.util.find_spec("yaml")
    for folder in (spec.submodule_search_locations or ()) if spec else ():
        files += [(f"yaml/{path.name}", path) for path in sorted(Path(folder).iterdir()) if path.is_file()]
    for name, path in files:  # stamps, not contents: any edit, checkout or upgrade changes them
        try:
            st = path.stat()
        except OSError:  # a link to nothing (an editor's lock file, .#name.py): stamped as missing
            h.update(f"{name}\0-\0".encode())
            continue
        h.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()


def code_files(package: Path) -> list[tuple[str, Path]]:
    """Return (name inside `package`, path) of its code and data files (.py, .yaml, .json), in path order,
    outside __pycache__: walked without making a Path of every compiled file beside them."""
    found = []
    for folder, folders, names in os.walk(package):
        folders[:] = [name for name in folders if name != "__pycache__"]
        at = os.path.relpath(folder, package).split(os.sep) if folder != str(package) else []
        found += [(*at, name) for name in names if os.path.splitext(name)[1] in (".py", ".yaml", ".json")]
    return [("/".join(parts), package.joinpath(*parts)) for parts in sorted(found)]  # parts: as Paths sort
