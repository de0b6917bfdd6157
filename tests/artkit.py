"""Helpers for art tests: make images, name them from a card, lint a project in-process."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

BOX_MM = (53.5, 27.0)  # the machine-front art box


def pixels(dpi: float) -> tuple[int, int]:
    """Return the pixel size that fills the machine art box at `dpi` (rounded to the nearest pixel)."""
    return tuple(round(v / 25.4 * dpi) for v in BOX_MM)


def image_bytes(size: tuple[int, int], kind: str = "PNG", colour=(200, 120, 40), **save) -> bytes:
    """Return an image of one colour with a darker left half, encoded as `kind`."""
    im = Image.new("RGB", size, colour)
    im.paste((40, 40, 40), (0, 0, size[0] // 2, size[1]))
    out = io.BytesIO()
    im.save(out, kind, **save)
    return out.getvalue()


def name_art(project: Path, art: str, machine: str = "feed-belt") -> None:
    """Add `art: <art>` under a machine's glyph line in machines.yaml (one line, so later lines shift by one)."""
    path = project / "cards" / "pocket-foundry" / "machines.yaml"
    text = path.read_text(encoding="utf-8")
    anchor = f"    glyph: {machine}\n"
    assert anchor in text
    path.write_text(text.replace(anchor, anchor + f"    art: {art}\n", 1), encoding="utf-8")


def lint(project: Path, missing_art: str | None = None, pages: bool = False):
    """Validate the project's Pocket Foundry in-process and lint its card faces (and pages); return the report."""
    from generator.pipeline import Pipeline

    pipeline = Pipeline(project, "pocket-foundry", missing_art=missing_art)
    assert pipeline.validate() is not None, pipeline.report.render()
    if pages:
        pipeline.lint()
    else:
        pipeline.layout()
    return pipeline.report
