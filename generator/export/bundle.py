"""One zip per game or edition: home kits, print-shop files, Tabletop Simulator files and a manifest.

The zip is byte-identical when rebuilt from the same input: entries sorted by name, every timestamp
1980-01-01 00:00, permissions 0644, one compression level, and manifest.json lists every other file
with its size and SHA-256.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..diagnostics import Report
from ..impose.sheets import PrintOptions
from ..pipeline import Pipeline
from .common import Game, laid_out
from .options import ExportOptions

MANIFEST = "manifest.json"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can hold
SHOP_TARGETS = ("thegamecrafter", "makeplayingcards", "drivethrucards", "tts")
HOME_VARIANTS: tuple[dict[str, Any], ...] = (  # the home kits a bundle holds, on both papers
    {},
    {"print_options": PrintOptions(duplex="gutterfold")},
    {"low_ink": True},
)


def contents(
    root: Path, game_id: str, options: ExportOptions, missing_art: str | None = None
) -> tuple[dict[str, bytes], Report, Game | None]:
    """Return ({path in the zip: bytes} without the manifest, the report, the loaded game or None)."""
    from . import face_target, pnp

    files: dict[str, bytes] = {}
    report = Report()
    for variant in HOME_VARIANTS:
        home = replace(options, papers=("a4", "letter"), **variant)
        pipe = pnp.pipeline(root, game_id, home, missing_art)
        made = pnp.files(pipe, home)
        report.extend(pipe.report.items)
        if not made:
            return {}, report, None
        files.update({f"pnp/{name}": data for name, data in made.items()})
    game = laid_out(Pipeline(root, game_id, players=options.players, missing_art=missing_art))
    if game.kit is None:
        report.extend(game.report.items)
        return {}, report, None
    for target in SHOP_TARGETS:
        for name, data in face_target(target).files(game, options).items():
            files[f"{target}/{name}"] = data
    return files, report, game


def manifest(game: Game, files: dict[str, bytes]) -> bytes:
    """Return manifest.json: what the bundle is (title, edition, cardpress version) and every file in it."""
    loaded = game.pipeline.load()
    assert loaded is not None and game.kit is not None  # contents() returns only games that laid out
    header = loaded.header
    data = {
        "game": game.id,
        "title": header.title,
        "edition": {
            "edition": header.edition,
            "publisher": header.publisher,
            "tagline": header.tagline,
            "credits": list(header.credits),
        },
        "players": {"supported": list(header.players), "kit": game.kit.players},
        "cardpress": __version__,
        "files": [
            {"path": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            for name, data in sorted(files.items())
        ],
    }
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def zipped(files: dict[str, bytes]) -> bytes:
    """Return a zip of `files` that is the same bytes for the same files."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.create_system = 3  # unix, so the permissions below are read
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name], compresslevel=9)
    return out.getvalue()


def files(
    root: Path, game_id: str, options: ExportOptions, missing_art: str | None = None
) -> tuple[dict[str, bytes], Report]:
    """Return ({zip name: zip bytes}, report) for one game."""
    made, report, game = contents(root, game_id, options, missing_art)
    if game is None:
        return {}, report
    made[MANIFEST] = manifest(game, made)
    return {f"{game_id}-bundle.zip": zipped(made)}, report
