"""Write results to disk atomically: one file, or a whole set that appears together or not at all."""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

TEMP_PREFIX = ".cardpress-"  # every temporary file we make starts with this and its process id
STALE_SECONDS = 24 * 3600  # older than this, a temporary file is stale even if its process id is in use again
_TEMP = re.compile(rf"^{re.escape(TEMP_PREFIX)}(\d+)-.+\.tmp$")


def write_atomic(path: Path, data: bytes) -> Path:
    """Write `data` to `path` through a temporary file, so a reader never sees half a file."""
    return write_all({path: data})[0]


def write_all(files: Mapping[Path, bytes]) -> list[Path]:
    """Write every file to a temporary name first; rename them into place only once all are complete.

    A failure (a full disk, a read-only folder) or a kill before the renames leaves every previous file whole;
    temporary files left by a killed run are removed by the next run that writes into the same folder.
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            clear_stale(path.parent)
            fd, tmp = tempfile.mkstemp(
                prefix=f"{TEMP_PREFIX}{os.getpid()}-{path.name[:40]}.", suffix=".tmp", dir=path.parent
            )
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)  # mkstemp makes files private; what we write is for sharing
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise
    for tmp, path in staged:  # renames within one folder are atomic and do not fail for lack of space
        os.replace(tmp, path)
    return [path for _, path in staged]


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
