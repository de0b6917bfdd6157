"""Where cardpress keeps work it can reuse between runs (compiled templates and schemas)."""

from __future__ import annotations

import os
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
