"""One zip per game or edition: home kits, print-shop files, Tabletop Simulator files and a manifest.

Beside the zip go the Tabletop Simulator files unpacked (tts/): its saved object's file:/// URLs name
those images, so it loads from the bundle's folder with nothing else exported (or, with --url-prefix,
from where they are hosted).

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
from typing import Any

from .. import __version__
from ..diagnostics import Report
from ..impose.sheets import PrintOptions
from . import readmes
from .common import Game
from .target import ExportJob, ExportTarget, exports

MANIFEST = "manifest.json"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can hold
HOME_VARIANTS: tuple[dict[str, Any], ...] = (  # the home kits a bundle holds, on both papers
    {},
    {"print_options": PrintOptions(duplex="gutterfold")},
    {"low_ink": True},
)


def contents(job: ExportJob) -> tuple[dict[str, bytes], Report, Game | None]:
    """Return ({path in the zip: bytes} without the manifest, the report, the laid-out game or None)."""
    from . import pnp

    files: dict[str, bytes] = {}
    report = Report()
    for variant in HOME_VARIANTS:
        home = replace(job.options, papers=("a4", "letter"), **variant)
        pipe = pnp.pipeline(job.root, job.game_id, home, job.missing_art)
        made = pnp.files(pipe, home)
        report.extend(pipe.report.items)
        if not made:
            return {}, report, None
        files.update({f"pnp/{name}": data for name, data in made.items()})
    game = job.game()
    if game.kit is None:
        report.extend(game.report.items)
        return {}, report, None
    inside = job.within(job.options.folder(job.game_id, TARGET.name))  # file:/// URLs name the bundle's folder
    for target in exports():
        if target.bundled:
            made, _ = target.files(inside)
            files.update({f"{target.name}/{name}": data for name, data in made.items()})
            where = inside.options.folder(job.game_id, target.name)
            note = readmes.readme(target.name, job.game_id, inside.options, where) if made else None
            if note is not None:
                files[f"{target.name}/{readmes.NAME}"] = note
    return files, report, game


def unpacked(files: dict[str, bytes]) -> dict[str, bytes]:
    """Return the files of the targets that name their own folder (TTS's file:/// URLs), to write beside the zip."""
    kept = {target.name for target in exports() if target.unpacked}
    return {name: data for name, data in files.items() if name.split("/")[0] in kept}


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


class Bundle(ExportTarget):
    """One zip per game with its home kits, every bundled target's files and a manifest of checksums."""

    name = "bundle"
    summary = "One zip per game: the home kits (three variants, both papers), every shop and table target, a manifest."
    kind = "bundle"

    def files(self, job: ExportJob) -> tuple[dict[str, bytes], Report]:
        made, report, game = contents(job)
        if game is None:
            return {}, report
        beside = unpacked(made)
        made[MANIFEST] = manifest(game, made)
        return {f"{job.game_id}-bundle.zip": zipped(made), **beside}, report


TARGET = Bundle()
