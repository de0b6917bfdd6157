"""Art: files checked by content and size, fitted to their box, judged at print size, stood in for when missing."""

from __future__ import annotations

import io

import pytest
from artkit import BOX_MM, image_bytes, lint, name_art, pixels
from conftest import ROOT, run_cli
from PIL import Image
from pypdf import PdfReader

from generator.art import files, fit, placeholder
from generator.art.place import PRINT_DPI
from generator.build import build
from generator.iterate.session import Session
from generator.layout.document import Element

ART = ROOT / "cards" / "pocket-foundry" / "art"


# --- geometry -------------------------------------------------------------------------------------


def test_cover_fills_the_box_and_crops_the_long_side():
    f = fit.fit((400, 100), (10, 20, 50, 25), "cover")
    assert (f.w, f.h) == (100, 25)  # height decides; width overflows and is clipped
    assert (f.x, f.y) == (10 - 25, 20)  # centred
    assert f.min_dpi == pytest.approx(100 / (25 / 25.4))


def test_contain_shows_the_whole_image():
    f = fit.fit((400, 100), (10, 20, 50, 25), "contain")
    assert (f.w, f.h) == (50, 12.5)
    assert (f.x, f.y) == (10, 20 + 6.25)


def test_focus_is_centred_as_far_as_the_edges_allow():
    left = fit.fit((400, 100), (0, 0, 50, 25), "cover", (0.0, 0.5))
    assert left.x == 0  # pinned: the image may not uncover the box
    quarter = fit.fit((400, 100), (0, 0, 50, 25), "cover", (0.25, 0.5))
    assert quarter.x == pytest.approx(25 - 0.25 * 100)  # the focus sits in the middle of the box
    right = fit.fit((400, 100), (0, 0, 50, 25), "cover", (1.0, 0.5))
    assert right.x + right.w == pytest.approx(50)


def test_stretch_fills_the_box_and_reports_the_coarser_axis():
    f = fit.fit((300, 300), (0, 0, 50.8, 25.4), "stretch")
    assert (f.w, f.h) == (50.8, 25.4)
    assert f.dpi == pytest.approx((150, 300)) and f.min_dpi == pytest.approx(150)


# --- files from strangers ------------------------------------------------------------------------


@pytest.mark.parametrize("kind, name", [("PNG", "png"), ("JPEG", "jpeg"), ("WEBP", "webp")])
def test_images_are_recognised_by_content_not_by_name(tmp_path, kind, name):
    path = tmp_path / "art.bin"
    path.write_bytes(image_bytes((64, 32), kind))
    art = files.open_art(path)
    assert (art.kind, art.size) == (name, (64, 32))


def _oriented_png(path, orientation: int) -> None:
    """Write a PNG, red left and blue right, with an EXIF orientation and a transparent corner."""
    im = Image.new("RGBA", (64, 32), (220, 20, 20, 255))
    im.paste((20, 20, 220, 255), (32, 0, 64, 32))
    im.putpixel((0, 0), (0, 0, 0, 0))
    exif = Image.Exif()
    exif[files.ORIENTATION] = orientation
    im.save(path, "PNG", exif=exif)


@pytest.mark.parametrize("orientation", [1, 6])
def test_a_raster_is_decoded_once_between_its_check_and_its_drawing(tmp_path, monkeypatch, orientation):
    path = tmp_path / f"art{orientation}.png"
    _oriented_png(path, orientation)
    monkeypatch.setattr(files, "_READERS", {})
    monkeypatch.setattr(files, "_DECODED", files._Decoded())
    art = files.open_art(path)
    opened = []
    real_open = Image.open
    monkeypatch.setattr(Image, "open", lambda *a, **k: opened.append(a) or real_open(*a, **k))
    reused, mask = files.pdf_image(art)
    assert opened == [] and files._DECODED.kept == {}  # drawn from what the check decoded, then let go
    monkeypatch.setattr(files, "_READERS", {})
    fresh, fresh_mask = files.pdf_image(art)  # nothing kept: decoded again, to the same pixels
    assert len(opened) == 1
    assert (reused.getSize(), reused.getRGBData(), mask) == (fresh.getSize(), fresh.getRGBData(), fresh_mask)
    assert reused.getSize() == ((32, 64) if orientation == 6 else (64, 32))  # turned upright, as before
    assert mask == "auto"


def test_decoded_rasters_kept_for_drawing_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_CHECKED", {})
    monkeypatch.setattr(files, "_DECODED", files._Decoded())
    monkeypatch.setattr(files, "DECODED_LIMIT", 2 * 64 * 32 * 4)  # two 64 × 32 RGBA rasters
    for n in range(3):
        path = tmp_path / f"art{n}.png"
        _oriented_png(path, n + 1)
        files.open_art(path)
    assert len(files._DECODED.kept) == 2  # the oldest went first
    assert files._DECODED.size == 2 * 64 * 32 * 4


def test_a_text_file_named_png_is_refused(tmp_path):
    path = tmp_path / "fake.png"
    path.write_text("not an image")
    with pytest.raises(files.ArtError, match="fake.png is not a PNG, JPEG, WebP or SVG image"):
        files.open_art(path)


def test_too_many_pixels_are_refused_before_decoding(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_PIXELS", 1000)
    path = tmp_path / "big.png"
    path.write_bytes(image_bytes((50, 50)))
    with pytest.raises(files.ArtError, match="50 × 50 pixels"):
        files.open_art(path)


def test_too_many_bytes_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_BYTES", 100)
    path = tmp_path / "big.png"
    path.write_bytes(image_bytes((50, 50), "PNG", optimize=False) + b"\0" * 200)
    with pytest.raises(files.ArtError, match="the limit is 0 MiB"):
        files.open_art(path)


def test_a_truncated_image_is_refused(tmp_path):
    path = tmp_path / "cut.png"
    path.write_bytes(image_bytes((200, 100))[:300])
    with pytest.raises(files.ArtError, match="cannot be read as PNG"):
        files.open_art(path)


# --- lint --------------------------------------------------------------------------------------------


def test_shipped_kit_carries_art_for_every_card_and_is_lint_clean():
    report = lint(ROOT, pages=True)
    assert report.items == [], report.render()
    for name in (
        "feed-belt",
        "small-press",
        "sort-scoop",
        "ticket-stamp",
        "twin-press",
        "polishing-wheel",
        "packing-line",
        "return-chute",
        "starter-feeder",
    ):
        art = files.open_art(ART / f"{name}.png")
        assert art.size[0] / (BOX_MM[0] / 25.4) >= PRINT_DPI and art.size[1] / (BOX_MM[1] / 25.4) >= PRINT_DPI
        assert art.bytes < 40_000  # modest: flat colours compress well


def test_a_150_dpi_image_is_a_located_warning(project):
    (project / "cards/pocket-foundry/art/low.png").write_bytes(image_bytes(pixels(150)))
    name_art(project, "art/low.png")
    first, second = lint(project).items  # one per face that shows it: both copies of the card
    assert first.headline() == (
        "cards/pocket-foundry/machines.yaml:13:10: warning[A002] machines[0].art: feed-belt-1/front: art: "
        "cards/pocket-foundry/art/low.png prints at 150 dpi, below 300: 316 × 159 px drawn 53.7 × 27.0 mm "
        "(box 53.5 × 27.0 mm); it will look soft"
    )
    assert first.hint == "supply at least 632 × 319 px (the box at 300 dpi)"
    assert second.message.startswith("feed-belt-2/front: art: ") and second.code == "A002"


def test_an_image_upscaled_more_than_twice_is_its_own_warning(project):
    (project / "cards/pocket-foundry/art/tiny.png").write_bytes(image_bytes(pixels(100)))
    name_art(project, "art/tiny.png")
    items = lint(project).items
    assert [(d.severity, d.code) for d in items] == [("warning", "A003")] * 2
    assert "upscaled 3.0× past print resolution (100 dpi)" in items[0].message


def test_art_at_300_dpi_passes(project):
    (project / "cards/pocket-foundry/art/fine.jpg").write_bytes(image_bytes(pixels(301), "JPEG", quality=90))
    name_art(project, "art/fine.jpg")
    assert lint(project).items == []


@pytest.mark.parametrize("policy, expected", [("placeholder", None), ("warn", "warning"), ("error", "error")])
def test_missing_art_follows_the_policy(project, policy, expected):
    (project / "cards/pocket-foundry/art/sort-scoop.png").unlink()
    items = lint(project, missing_art=policy).items
    if expected is None:
        assert items == []
        return
    assert [(d.severity, d.code) for d in items] == [(expected, "A001")] * 2  # both copies of the card
    drew = "; drew a placeholder" if expected == "warning" else ""  # an error draws nothing: no kit is written
    assert items[0].headline() == (
        f"cards/pocket-foundry/machines.yaml:22:9: {expected}[A001] machines[2]: sort-scoop-1/front: art: "
        f"cards/pocket-foundry/art/sort-scoop.png does not exist{drew}"
    )


def test_missing_art_policy_comes_from_game_yaml(project):
    game = project / "cards/pocket-foundry/game.yaml"
    game.write_text(game.read_text().replace("missing_art: warn", "missing_art: error"))
    (project / "cards/pocket-foundry/art/sort-scoop.png").unlink()
    assert {d.severity for d in lint(project).items} == {"error"}
    assert lint(project, missing_art="placeholder").items == []  # the command line overrides it


def test_missing_art_under_error_fails_the_build_and_keeps_output(project):
    (project / "cards/pocket-foundry/art/sort-scoop.png").unlink()
    out = project / "output" / "pocket-foundry"
    out.mkdir(parents=True)
    (out / "pocket-foundry-a4.pdf").write_bytes(b"last good")
    result = run_cli(
        "build",
        "pocket-foundry",
        "--root",
        str(project),
        "--out",
        str(project / "output"),
        "--missing-art",
        "error",
        cwd=project,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    # both copies of the card are one problem, said once with its count
    assert result.stderr.count("error[A001]") == 1
    assert (
        "error[A001] machines[2]: sort-scoop/front: art: cards/pocket-foundry/art/sort-scoop.png does not exist "
        "(2 copies)\n" in result.stderr
    )
    assert (out / "pocket-foundry-a4.pdf").read_bytes() == b"last good"


def test_art_paths_stay_inside_the_game_folder(project):
    name_art(project, "../../fonts/Lato-Regular.ttf")
    (problem,) = lint(project).errors
    assert problem.headline() == (
        "cards/pocket-foundry/machines.yaml:13:10: error[S010] machines[0].art: "
        "path '../../fonts/Lato-Regular.ttf' leaves the folder cards/pocket-foundry/"
    )


def test_an_unreadable_image_is_an_error(project):
    (project / "cards/pocket-foundry/art/notes.png").write_text("TODO: draw this")
    name_art(project, "art/notes.png")
    problem, _ = lint(project).errors  # one per copy of the card
    assert problem.code == "A004" and problem.loc.line == 13
    assert "notes.png is not a PNG, JPEG, WebP or SVG image" in problem.message


# --- into the PDF -------------------------------------------------------------------------------------


def _images(pdf_path):
    """Return every image XObject in the PDF (inside forms too), by name."""
    found = {}

    def visit(resources):
        for name, ref in ((resources or {}).get("/XObject") or {}).items():
            obj = ref.get_object()
            if obj["/Subtype"] == "/Image":
                found[name] = obj
            else:
                visit(obj.get("/Resources"))

    for page in PdfReader(pdf_path).pages:
        visit(page.get("/Resources"))
    return found


def test_jpeg_art_passes_through_unchanged_and_webp_is_stored_losslessly(project, tmp_path):
    jpeg = image_bytes(pixels(320), "JPEG", quality=85)
    webp_image = Image.new("RGB", pixels(330), (30, 90, 150))
    webp_image.paste((250, 240, 10), (0, 0, 100, 60))
    webp = io.BytesIO()
    webp_image.save(webp, "WEBP", lossless=True)
    (project / "cards/pocket-foundry/art/photo.jpeg").write_bytes(jpeg)
    (project / "cards/pocket-foundry/art/drawing.webp").write_bytes(webp.getvalue())
    name_art(project, "art/photo.jpeg")
    name_art(project, "art/drawing.webp", machine="small-press")
    (path,) = build(project, "pocket-foundry", papers=["a4"], players=None, out=tmp_path).written
    images = list(_images(path).values())
    dct = [im for im in images if list(im["/Filter"]) == ["/DCTDecode"]]
    assert len(dct) == 1 and dct[0]._data == jpeg  # the very bytes of the file
    flate = [im for im in images if im["/Width"] == webp_image.width and list(im["/Filter"]) == ["/FlateDecode"]]
    assert len(flate) == 1
    assert flate[0].decode_as_image().tobytes() == webp_image.tobytes()  # lossless
    assert len(images) == 9  # one XObject per distinct file, however many cards use it


def test_a_camera_jpeg_is_placed_upright_without_re_encoding(project, tmp_path):
    upright = Image.new("RGB", (632, 319), (220, 20, 20))
    upright.paste((20, 20, 220), (316, 0, 632, 319))  # red left, blue right
    stored = upright.transpose(Image.Transpose.ROTATE_90)  # how a camera held sideways stores it
    exif = Image.Exif()
    exif[files.ORIENTATION] = 6  # "rotate 90° clockwise to view"
    data = io.BytesIO()
    stored.save(data, "JPEG", quality=95, exif=exif)
    (project / "cards/pocket-foundry/art/sideways.jpg").write_bytes(data.getvalue())
    name_art(project, "art/sideways.jpg")
    outcome = Session(project, "pocket-foundry", tmp_path, dpi=100, pdfs=False).rebuild(only=["feed-belt-1"])
    assert outcome.ok and outcome.report.items == [], outcome.report.render()  # 632 × 319 upright: 300 dpi
    proof = Image.open(tmp_path / "pocket-foundry/proofs/feed-belt-1.front.png")
    mm = 100 / 25.4
    y = round((3 + 3 + 15 + 13.5) * mm)  # bleed + safe + art top + half the box
    left, right = proof.getpixel((round((3 + 5 + 10) * mm), y)), proof.getpixel((round((3 + 5 + 44) * mm), y))
    assert left[0] > 180 and left[2] < 80, left
    assert right[2] > 180 and right[0] < 80, right


# --- stand-ins -----------------------------------------------------------------------------------------


def test_stand_ins_are_deterministic_and_use_the_card_glyph():
    props = {"x": 5, "y": 18, "w": 53.5, "h": 27, "glyph": "feed-belt", "colour": "#c8741c"}
    first, again = (
        placeholder.elements(Element("image", props, "e")),
        placeholder.elements(Element("image", props, "e")),
    )
    assert first == again
    assert any(e.kind == "pattern" and e.props["icon"] == "feed-belt" for e in first)
    assert any(e.kind == "icon" and e.props["name"] == "feed-belt" for e in first)


def test_stand_in_art_files_are_deterministic_and_print_ready():
    from generator.art.make import stand_in_png
    from generator.pipeline import Pipeline

    studio = Pipeline(ROOT, "pocket-foundry").studio()
    props = {"w": 53.5, "h": 27.0, "glyph": "twin-press", "colour": "#4a3f8f"}
    png = stand_in_png(props, studio.fonts, studio.icons)
    assert png == stand_in_png(props, studio.fonts, studio.icons)
    im = Image.open(io.BytesIO(png))
    assert im.size == (632, 319) and round(im.info["dpi"][0]) == 300


def test_art_make_missing_writes_stand_ins_that_pass_lint(project):
    for name in ("packing-line", "starter-feeder"):
        (project / f"cards/pocket-foundry/art/{name}.png").unlink()
    result = run_cli("art", "pocket-foundry", "--make-missing", "--root", str(project), cwd=project)
    assert result.returncode == 0, result.stderr
    assert sorted(result.stdout.splitlines()) == [
        "wrote cards/pocket-foundry/art/packing-line.png",
        "wrote cards/pocket-foundry/art/starter-feeder.png",
    ]
    assert lint(project).items == []
    again = run_cli("art", "pocket-foundry", "--make-missing", "--root", str(project), cwd=project)
    assert (again.returncode, again.stdout) == (0, "pocket-foundry: no art is missing; nothing written\n")


def test_kits_with_art_are_byte_identical_wherever_the_project_lives(project, tmp_path, kit_pdfs):
    """Images are named by their content, never by a file path (ReportLab's default)."""
    (moved,) = build(project, "pocket-foundry", papers=["a4"], players=None, out=tmp_path).written
    assert moved.read_bytes() == kit_pdfs["a4"].read_bytes()


def test_art_lists_every_game_that_loads_when_another_is_broken(project):
    broken = project / "cards" / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("title: Broken\nruleset: deck\nplayers: [\n", encoding="utf-8")
    result = run_cli("art", "--root", str(project), cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "cards/broken/game.yaml:4:1: error[Y001]" in result.stderr
    assert "pocket-foundry: 9 art files, 0 missing, 0 below 300 dpi\n" in result.stdout


def test_proof_says_what_it_wrote_for_every_game_that_loads_when_another_is_broken(project):
    broken = project / "cards" / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("title: Broken\nruleset: deck\nplayers: [\n", encoding="utf-8")
    result = run_cli("proof", "--root", str(project), "--dpi", "40", "--out", str(project / "out"), cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "cards/broken/game.yaml:4:1: error[Y001]" in result.stderr
    assert "pocket-foundry: 21 proofs in " in result.stdout
