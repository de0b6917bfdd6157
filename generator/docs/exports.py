"""The export-target page, made from the `cardpress.exports` registry: each target's name, kind and summary."""

from __future__ import annotations

from ..export.target import RANKS, registrations
from .markdown import banner, table
from .shipped import shipped

KINDS = {
    "home": "home print-and-play kit",
    "files": "image files",
    "shop": "print shop",
    "table": "virtual table",
    "bundle": "bundle",
}


def page() -> str:
    """Return docs/reference/exports.md."""
    targets = [r.plugin for r in shipped(registrations()) if r.plugin is not None]
    rows = [[f"`{t.name}`", KINDS.get(t.kind, t.kind), "yes" if t.bundled else "", t.summary] for t in targets]
    order = ", ".join(f"`{kind}`" for kind in RANKS)
    return "\n".join(
        [
            banner("the `cardpress.exports` entry-point group (`generator/export/target.py`)"),
            "# Export targets\n",
            "`cardpress export GAME --to TARGET` writes a target's files into `OUT/<game>/<target>/`; `--to` "
            "repeats, and `--to all` runs every target. These are the targets cardpress ships; a separately "
            "installed package adds its own through the same entry-point group "
            "(see [Writing an export target](../extending/export-targets.md)).\n",
            table(["Target", "Kind", "In the bundle", "What it writes"], rows),
            f"`--to all` runs them in this order: by kind ({order}), then by name.\n",
        ]
    )
