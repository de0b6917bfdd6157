"""The home print-and-play kit, with its variants in the file name: paper, players, duplex edge, offset, low ink."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Report
from ..impose.sheets import PrintOptions
from ..layout import lowink
from ..pipeline import Pipeline
from .options import ExportOptions
from .target import ExportJob, ExportTarget

DUPLEX_NAMES = {"long": "long-edge", "short": "short-edge", "gutterfold": "gutterfold"}


def kit_name(game_id: str, paper: str, players: int, options: PrintOptions, low_ink: bool) -> str:
    """Return the kit's file name, naming everything that makes two kits differ."""
    parts = [game_id, paper, f"{players}p", DUPLEX_NAMES[options.duplex]]
    dx, dy = options.back_offset
    if dx or dy:
        parts.append(f"offset{dx:+g}{dy:+g}mm")
    if options.printer_margin != PrintOptions().printer_margin:
        parts.append(f"margin{options.printer_margin:g}mm")
    if low_ink:
        parts.append(lowink.VARIANT)
    return "-".join(parts) + ".pdf"


def pipeline(root: Path, game_id: str, options: ExportOptions, missing_art: str | None = None) -> Pipeline:
    """Return the pipeline that builds this kit variant."""
    return Pipeline(
        root,
        game_id,
        players=options.players,
        missing_art=missing_art,
        options=options.print_options,
        variant=lowink.VARIANT if options.low_ink else "",
    )


def files(pipe: Pipeline, options: ExportOptions) -> dict[str, bytes]:
    """Return {file name: PDF bytes} for each paper, or {} when the pipeline reported an error."""
    pdfs = pipe.render(list(options.papers))
    kit = pipe.kit()
    if pdfs is None or kit is None:
        return {}
    return {
        kit_name(pipe.game_id, paper, kit.players, options.print_options, options.low_ink): data
        for paper, data in pdfs.items()
    }


class HomeKit(ExportTarget):
    """The home print-and-play kit, as an export target."""

    name = "pnp"
    summary = "The home print-and-play kit PDFs, named for their variant: paper, players, duplex edge, offset, low ink."
    kind = "home"

    def files(self, job: ExportJob) -> tuple[dict[str, bytes], Report]:
        pipe = pipeline(job.root, job.game_id, job.options, job.missing_art)
        return files(pipe, job.options), pipe.report


TARGET = HomeKit()
