"""The rules check's findings, kept by a digest of everything the check reads, so unchanged cards are not checked again.

A ruleset's rules check reads the game's files (its edition chain's folders: card data, game.yaml, the
rulebook, the catalogue), the edits made in memory, and cardpress's own code, nothing else; its findings
are kept under a digest of all of those, in the `rules` cache beside the laid-out faces. Any edit to a file,
an edit in memory or a change of cardpress's code is a new key, and a missing or unreadable entry is a miss.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
from pathlib import Path
from typing import Any

from ..contract import LoadedGame
from ..diagnostics import Diagnostic, Report
from ..source.digest import file_digest
from . import cache

LIMIT = 8 * 2**20  # bytes of findings kept: each entry is one state of one game's files
MAX_HASHED = 64 * 2**20  # bytes: a bigger file stands in the key by its size and time


def check_rules(game: LoadedGame[Any], report: Report, edits: object = None) -> None:
    """Hold the loaded game to its rules, or say again what the check said of the very same files and code."""
    shelf = cache.shelf("rules")
    key = _key(game, edits) if shelf is not None else ""
    found = _findings(shelf.get(key)) if shelf is not None else None
    if found is not None:
        report.extend(found)
        return
    since = len(report.items)
    game.ruleset.check_rules(game, report)
    if shelf is not None:
        shelf.put(key, pickle.dumps(report.items[since:], protocol=pickle.HIGHEST_PROTOCOL))


def _findings(stored: bytes | None) -> list[Diagnostic] | None:
    """Return the findings an entry holds, or None for a missing, torn or foreign one (a miss)."""
    if stored is None:
        return None
    try:
        found = pickle.loads(stored)  # written by cardpress into the user's own cache, never by a project
    except Exception:
        return None
    return found if isinstance(found, list) and all(isinstance(d, Diagnostic) for d in found) else None


def _key(game: LoadedGame[Any], edits: object) -> str:
    """Return the digest of what the rules check reads: every file of the game's folders, edits, code."""
    h = hashlib.sha256(f"{cache.code_digest()}\0{game.ruleset.name}\0{edits!r}\0".encode())
    for folder in game.dir.chain:
        h.update(f"{folder.id}\0".encode())
        for top, dirs, files in os.walk(folder.folder):  # links to folders are not followed
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(top, name)
                h.update(f"{os.path.relpath(path, folder.folder)}\0{_stamp(path)}\0".encode())
    return h.hexdigest()


def _stamp(path: str) -> str:
    """Return what stands for a file in the key: its contents' digest (memoized by stamp, as for art), or for
    a link where it leads (never read through), and for a file too big to load its size and time (the
    loaders refuse it anyway)."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            return "link:" + os.readlink(path)
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_HASHED:
        return f"{st.st_mode}:{st.st_size}:{st.st_mtime_ns}"
    return file_digest(Path(path)) or "unreadable"


def trim() -> None:
    """Drop the least recently used findings past LIMIT."""
    cache.trim("rules", LIMIT)
