"""What an export is asked for: targets, papers, players, home-print variant, shop and tabletop settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..impose.sheets import PrintOptions


@dataclass(frozen=True)
class ExportOptions:
    """Settings every target reads what it needs from; the defaults are what `cardpress export` writes."""

    papers: tuple[str, ...] = ("a4", "letter")
    players: int | None = None  # None: the game's default count
    print_options: PrintOptions = field(default_factory=PrintOptions)  # pnp: duplex edge, back offset, margin
    low_ink: bool = False  # pnp: light fills, dark text (generator.layout.lowink)
    dpi: int = 300  # cards: resolution of the face PNGs
    bleed: bool = True  # cards: with the layout's bleed (True) or cut at the trim
    url_prefix: str = ""  # tts: where the sheet images will be hosted ("" = relative file names)
    out: Path = Path("output")  # where OUT/<game>/<target>/ goes (tts: its file:/// URLs point there)
    cmyk_profile: Path | None = None  # drivethrucards: an ICC profile to convert through (None: the fixed formula)
    within: Path | None = None  # the folder targets' folders go in instead of OUT/<game>/ (the bundle's own)

    def folder(self, game_id: str, target: str) -> Path:
        """Return the absolute folder a target's files go to: OUT/<game>/<target>/, or WITHIN/<target>/."""
        if self.within is not None:
            return self.within / target
        return (self.out if self.out.is_absolute() else Path.cwd() / self.out) / game_id / target
