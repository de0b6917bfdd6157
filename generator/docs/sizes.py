"""The card-size page, made from the size presets and the shops' pixel rules: what `size: NAME` means everywhere."""

from __future__ import annotations

from ..export import makeplayingcards, thegamecrafter
from ..impose.sizes import ALIASES, PRESETS
from .markdown import banner, table


def page() -> str:
    """Return docs/reference/card-sizes.md."""
    rows = []
    for name, size in PRESETS.items():
        aliases = ", ".join(f"`{alias}`" for alias, target in ALIASES.items() if target == name)
        tgc_w, tgc_h = thegamecrafter.template(size)
        mpc_w, mpc_h = makeplayingcards.template(size)
        tgc = f"{tgc_w} × {tgc_h}" + ("" if thegamecrafter.is_template(size) else " (computed)")
        rows.append(
            [
                f"`{name}`",
                aliases,
                f"{size.w:g} × {size.h:g}",
                f"{size.w / 25.4:.4g} × {size.h / 25.4:.4g}",
                tgc,
                f"{mpc_w} × {mpc_h}",
            ]
        )
    return "\n".join(
        [
            banner("the size presets (`generator/impose/sizes.py`) and the shop targets' pixel rules"),
            "# Card sizes\n",
            "A deck's `size` (and `cardpress new --size`) takes one of these presets, or any size written as "
            "`63x88mm`, `2.5x3.5in` or `{w: 70, h: 120}`, with `landscape` or `portrait` to turn it. Trims are "
            "exact: inch sizes are converted at 25.4 mm and never rounded. The last two columns are the pixels "
            "of one face in The Game Crafter's and MakePlayingCards' exports at 300 dpi, bleed included "
            "(as the preset stands; a turned card turns them round). *Computed* means TGC publishes no template for the "
            "size in cardpress's sources: trim + 1/8 in a side. MPC's are trim + 36 px a side.\n",
            table(["Preset", "Also", "Trim, mm", "Trim, in", "TGC px", "MPC px"], rows),
        ]
    )
