"""Tabletop Playground and Screentop exports, the TTS warning, and the README every export folder gets."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from conftest import copy_project
from PIL import Image

from generator.export import runner, screentop, ttpg, tts
from generator.export.common import laid_out, png, rasters, trimmed
from generator.export.options import ExportOptions
from generator.pipeline import Pipeline
from generator.project.scaffold import new_game

# What Tabletop Playground's schema (templates.ts, object-template.ts) requires of a card template.
TTPG_REQUIRED = {"Type", "GUID", "Name", "Metadata", "CollisionType", "SurfaceType", "Models", "Tags"} | {
    "FrontTexture",
    "BackIndex",
    "HiddenIndex",
    "Indices",
    "CardNames",
    "CardMetadata",
    "CardTags",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("tables") / "project", games=())
    new_game(root, "tiny", size="poker")
    new_game(root, "minis", size="mini-american")
    return root


@pytest.fixture(scope="module")
def game(project):
    found = laid_out(Pipeline(project, "tiny"))
    assert found.kit is not None, found.report.render()
    return found


def test_ttpg_templates_follow_the_schema_and_name_their_textures(game):
    files = ttpg.files(game, ExportOptions())
    assert sorted(files) == [
        "Templates/main-poker-1.json",
        "Textures/main-poker-1.png",
        "Textures/main-poker-back.png",
    ]
    template = json.loads(files["Templates/main-poker-1.json"])
    assert set(template) >= TTPG_REQUIRED
    assert template["Type"] == "Card" and re.fullmatch(r"[0-9A-F]{32}", template["GUID"])
    assert (template["Width"], template["Height"]) == (6.35, 8.89)  # centimetres
    assert (template["BackIndex"], template["HiddenIndex"]) == (-2, -3)  # a separate back file; hidden shows it
    assert f"Textures/{template['FrontTexture']}" in files and f"Textures/{template['BackTexture']}" in files
    cols, rows = template["NumHorizontal"], template["NumVertical"]
    sheet = Image.open(io.BytesIO(files["Textures/main-poker-1.png"]))
    assert sheet.size[0] % cols == 0 and sheet.size[1] % rows == 0 and max(sheet.size) <= 4096
    fronts = list(dict.fromkeys(card.front.key for card in game.kit.cards))
    assert template["Indices"] == [fronts.index(card.front.key) for card in game.kit.cards]  # copies repeat
    assert len(template["Indices"]) == 10 and all(0 <= i < cols * rows for i in template["Indices"])
    assert set(template["CardNames"]) == {str(i) for i in range(len(fronts))}
    assert files == ttpg.files(game, ExportOptions())  # the same bytes every time


def test_screentop_grid_backs_and_cards_table(game):
    files = screentop.files(game, ExportOptions())
    assert sorted(files) == ["main-poker/back.png", "main-poker/cards.csv", "main-poker/fronts-1.png"]
    rows = list(csv.DictReader(io.StringIO(files["main-poker/cards.csv"].decode())))
    assert [(r["row"], r["column"], r["back"]) for r in rows][:2] == [("1", "1", "back.png"), ("1", "2", "back.png")]
    assert sum(int(r["count"]) for r in rows) == len(game.kit.cards) == 10
    (plan,) = tts.plan(game.decks())
    sheet = plan[1][0]
    grid = Image.open(io.BytesIO(files["main-poker/fronts-1.png"]))
    assert grid.size == (sheet.cols * sheet.cell[0], sheet.rows * sheet.cell[1])
    assert {(r["columns"], r["rows"]) for r in rows} == {(str(sheet.cols), str(sheet.rows))}
    back = Image.open(io.BytesIO(files["main-poker/back.png"]))
    assert back.size == sheet.cell


def test_every_export_folder_gets_a_readme_and_tts_says_where_its_images_are(project, tmp_path):
    targets = ["cards", "thegamecrafter", "tts", "ttpg", "screentop"]
    result = runner.run(project, "minis", targets, tmp_path, ExportOptions(out=tmp_path))
    assert result.report.ok() and not result.failed, result.report.render()
    for target in targets:
        readme = (tmp_path / "minis" / target / "README.md").read_text(encoding="utf-8")
        assert readme.startswith("# ") and ": minis\n" in readme.splitlines()[0] + "\n"
    tts_readme = (tmp_path / "minis" / "tts" / "README.md").read_text(encoding="utf-8")
    assert (tmp_path / "minis" / "tts").as_uri() in tts_readme and "--url-prefix" in tts_readme
    (warning,) = [d for d in result.report.items if d.code == "X005"]
    assert warning.severity == "warning"
    assert (
        warning.message
        == f"tts: minis.json loads its images from {(tmp_path / 'minis' / 'tts').as_uri()}/, so it loads on this machine only"
    )
    save = json.loads((tmp_path / "minis" / "tts" / "minis.json").read_bytes())
    for entry in save["ObjectStates"][0]["CustomDeck"].values():
        for key in ("FaceURL", "BackURL"):
            path = Path(entry[key].removeprefix("file://"))
            assert entry[key].startswith("file:///") and path.is_file()
    assert save["ObjectStates"][0]["Transform"]["scaleX"] == 0.7  # a mini card: 44.45 / 63.5, not 0.7143
    assert save["ObjectStates"][0]["Transform"]["scaleZ"] == 0.7143


def test_a_hosted_tts_export_says_where_to_upload(project, tmp_path):
    options = ExportOptions(out=tmp_path, url_prefix="https://example.org/minis/")
    result = runner.run(project, "minis", ["tts"], tmp_path, options)
    (warning,) = [d for d in result.report.items if d.code == "X005"]
    assert warning.message == "tts: minis.json loads its images from https://example.org/minis/"
    assert "upload the PNGs" in (warning.hint or "")


def test_the_bundle_alone_writes_every_image_its_tts_object_names(project, tmp_path, monkeypatch):
    from generator.export import bundle

    monkeypatch.setattr(bundle, "HOME_VARIANTS", ({},))  # one home kit: the TTS part does not depend on it
    result = runner.run(project, "minis", ["bundle"], tmp_path, ExportOptions(out=tmp_path, papers=("a4",)))
    assert result.report.ok() and not result.failed, result.report.render()
    folder = tmp_path / "minis" / "bundle"
    assert not (tmp_path / "minis" / "tts").exists()  # nothing but the bundle was exported
    with zipfile.ZipFile(folder / "minis-bundle.zip") as archive:
        zipped = archive.read("tts/minis.json")
        in_zip = {name for name in archive.namelist() if name.startswith("tts/")}
    assert (folder / "tts" / "minis.json").read_bytes() == zipped  # the unpacked copy is the zip's
    assert {f"tts/{p.name}" for p in (folder / "tts").iterdir()} == in_zip
    urls = [
        entry[key]
        for state in json.loads(zipped)["ObjectStates"]
        for entry in state["CustomDeck"].values()
        for key in ("FaceURL", "BackURL")
    ]
    assert urls and all(url.startswith((folder / "tts").as_uri() + "/") for url in urls)
    assert all(Path(url.removeprefix("file://")).is_file() for url in urls)
    readme = (folder / "tts" / "README.md").read_text(encoding="utf-8")
    assert (folder / "tts").as_uri() in readme


def test_table_targets_rasterize_each_sheet_once_and_share_its_bytes(project, monkeypatch):
    game = laid_out(Pipeline(project, "tiny"))
    made: list[str] = []
    sheet_image, back_image = tts.sheet_image, tts.back_image
    monkeypatch.setattr(tts, "sheet_image", lambda g, d, s, side: made.append(side) or sheet_image(g, d, s, side))
    monkeypatch.setattr(tts, "back_image", lambda g, d, s: made.append("back") or back_image(g, d, s))
    saved = tts.files(game, ExportOptions())
    package = ttpg.files(game, ExportOptions())
    table = screentop.files(game, ExportOptions())
    assert made == ["back", "front"]  # one sheet of fronts and the shared back, for all three targets
    assert package["Textures/main-poker-1.png"] == table["main-poker/fronts-1.png"] == saved["main-poker-1.png"]
    assert package["Textures/main-poker-back.png"] == table["main-poker/back.png"] == saved["main-poker-back.png"]
    ((deck, (sheet,)),) = tts.plan(game.decks())
    faces = [game.prepared(p.card, "front") for p in sheet.slots]
    alone = [  # each face drawn on its own, as Screentop's per-card backs were
        png(tts.fit_cell(trimmed(image, face.doc.bleed, deck.size, sheet.dpi), sheet.cell))
        for face, image in zip(faces, rasters(game, faces, sheet.dpi))
    ]
    assert tts.cell_pngs(game, deck, sheet, "front") == alone  # a cell cut from the sheet is the same bytes
