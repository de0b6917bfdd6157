"""Render the manual's pictures of printed sheets from the shipped kits (run from the checkout: python docs/images/render.py).

Each picture is a page of a kit built here through the pipeline, rasterized with pdfium as cardpress's proofs are,
and saved as a PNG without metadata, so the same cardpress and pdfium give the same bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from generator.pipeline import Pipeline
from generator.render.raster import rasterize

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# (picture, game, paper, page number in the kit, dpi): what the tour and the printing page show.
PICTURES = [
    ("pocket-foundry-cover.png", "pocket-foundry", "a4", 1, 60),
    ("pocket-foundry-fronts.png", "pocket-foundry", "a4", 3, 60),
    ("pocket-foundry-backs.png", "pocket-foundry", "a4", 4, 60),
    ("hedgerow-fronts.png", "hedgerow", "letter", 3, 60),
    ("micro-engine-fronts.png", "micro-engine", "a4", 3, 60),
    ("micro-engine-rules.png", "micro-engine", "a4", 32, 75),
    ("hedgerow-tokens.png", "hedgerow", "a4", 15, 60),
]


def main() -> int:
    """Build each kit once and write every picture of it into docs/images/."""
    kits: dict[tuple[str, str], bytes] = {}
    for name, game, paper, number, dpi in PICTURES:
        if (game, paper) not in kits:
            pdfs = Pipeline(ROOT, game).render([paper])
            if pdfs is None:
                print(f"{game} did not build: run `cardpress validate {game}`", file=sys.stderr)
                return 1
            kits[game, paper] = pdfs[paper]
        pages = list(rasterize(kits[game, paper], dpi))
        pages[number - 1].save(HERE / name, optimize=True)
        print(f"wrote docs/images/{name}: {game} {paper} page {number} at {dpi} dpi")
    return 0


if __name__ == "__main__":
    sys.exit(main())
