"""What a report was made from, so its numbers can be reproduced from its JSON alone: cardpress's version and
git commit, a hash of every input file of each game and its edition chain, the bots, the seeds and the command.
"""

from __future__ import annotations

import hashlib
import platform
import subprocess
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from ..project.folders import GameDir

PACKAGE = Path(__file__).resolve().parents[1]
# Options that never change a result (`--jobs 4` reproduces `--jobs 1` exactly), left out of the recorded
# command so that a report stays byte-identical whatever the worker count.
NEUTRAL = {"--jobs": True, "-j": True, "--scheduler": True}
FIELDS = ("cardpress", "git_commit", "git_dirty", "python", "inputs", "bots", "seeds", "command")


def version() -> str:
    """Return the installed cardpress version (the package's own when it is not installed)."""
    from importlib import metadata

    try:
        return metadata.version("cardpress")
    except metadata.PackageNotFoundError:
        from .. import __version__

        return __version__


@cache
def git_state() -> tuple[str | None, bool | None]:
    """Return the commit the package's source is checked out at and whether tracked files differ, if known."""
    folder = PACKAGE.parent
    try:
        head = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=False
        )
        if head.returncode != 0:
            return None, None
        status = subprocess.run(
            ["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no", "--", "generator"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None, None
    return head.stdout.strip() or None, bool(status.stdout.strip()) if status.returncode == 0 else None


def file_hashes(folder: Path) -> dict[str, str]:
    """Return the sha256 of every file under `folder`, by path relative to it (sorted; hidden files skipped)."""
    out: dict[str, str] = {}
    if not folder.is_dir():
        return out
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            out[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def inputs(game: GameDir) -> dict[str, Any]:
    """Return the game's edition chain (nearest first) and the hash of every file in each of its folders."""
    chain = game.chain
    files = {f"cards/{g.id}/{rel}": digest for g in chain for rel, digest in file_hashes(g.folder).items()}
    combined = hashlib.sha256("".join(f"{k}\0{v}\n" for k, v in files.items()).encode()).hexdigest()
    return {"chain": [g.id for g in chain], "sha256": combined, "files": files}


def command(argv: Sequence[str] | None = None) -> list[str]:
    """Return the command line as run (`cardpress …`), less the options that never change a result."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = ["cardpress"]
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in NEUTRAL:
            skip = "=" not in arg and NEUTRAL[name]
            continue
        out.append(arg)
    return out


def collect(
    games: Iterable[GameDir] = (),
    bots: Sequence[str] = (),
    seeds: dict[str, Any] | None = None,
    argv: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Return the provenance fields of a report (every field present; unknown ones are null or empty)."""
    commit, dirty = git_state()
    return {
        "cardpress": version(),
        "git_commit": commit,
        "git_dirty": dirty,
        "python": platform.python_version(),
        "inputs": {g.id: inputs(g) for g in games},
        "bots": list(bots),
        "seeds": seeds or {},
        "command": command(argv),
    }
