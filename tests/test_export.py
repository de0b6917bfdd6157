"""Export targets: pixel sizes per shop and card size, DriveThruCards boxes and CMYK, TTS sheets and ids, bundles."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from conftest import copy_project
from PIL import Image

from generator.export import bundle, cards, drivethrucards, makeplayingcards, pdfinspect, pdfx, thegamecrafter, tts
from generator.export.cmyk import Converter
from generator.export.common import Deck, extended, laid_out, px
from generator.export.options import ExportOptions
from generator.export.target import ExportJob
from generator.impose.sizes import PRESETS
from generator.kit import Card, Face
from generator.layout.units import PT_PER_MM
from generator.pipeline import Pipeline
from generator.project.scaffold import new_game

SIZES = {"poker": "tiny", "mini-american": "minis"}  # card size -> the scaffolded game that uses it


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A project with two five-card games made by `cardpress new`: poker cards and mini cards."""
    root = copy_project(tmp_path_factory.mktemp("export") / "project", games=())
    for size, game in SIZES.items():
        new_game(root, game, size=size)
    return root


@pytest.fixture(scope="module")
def games(project):
    """Each scaffolded game laid out once: {size: Game}."""
    out = {}
    for size, game_id in SIZES.items():
        game = laid_out(Pipeline(project, game_id))
        assert game.kit is not None, game.report.render()
        out[size] = game
    return out


# -- pixel sizes, every preset --------------------------------------------------------------------------------

TGC = {  # the shop's templates; other sizes get trim + 1/8 in a side
    "poker": (825, 1125),
    "poker-euro": (825, 1125),
    "bridge": (750, 1125),
    "tarot": (900, 1500),
    "mini-american": (600, 825),
    "mini-euro": (595, 878),
    "euro": (772, 1162),
    "square": (1125, 1125),
    "euro-square": (900, 900),
    "jumbo": (1125, 1725),
    "business-us": (1125, 675),
    "business-eu": (1079, 725),
}
MPC = {  # trim in whole pixels at 300 dpi + 36 px a side
    "poker": (822, 1122),
    "poker-euro": (816, 1111),
    "bridge": (747, 1122),
    "tarot": (897, 1497),
    "mini-american": (597, 822),
    "mini-euro": (592, 875),
    "euro": (769, 1159),
    "square": (1122, 1122),
    "euro-square": (899, 899),
    "jumbo": (1122, 1722),
    "business-us": (1122, 672),
    "business-eu": (1076, 722),
}


def test_every_preset_is_in_the_tables():
    assert set(TGC) == set(MPC) == set(PRESETS)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_shop_pixel_sizes_for_every_preset(name):
    size = PRESETS[name]
    assert thegamecrafter.template(size) == TGC[name]
    assert makeplayingcards.template(size) == MPC[name]
    turned = size.oriented("landscape" if size.h > size.w else "portrait")
    assert thegamecrafter.template(turned) == tuple(reversed(TGC[name]))
    # DriveThruCards: the page is the trim + 1/8 in a side, in points
    assert (size.w + 2 * drivethrucards.BLEED) * PT_PER_MM == pytest.approx(size.w * PT_PER_MM + 18)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_face_is_extended_to_the_shop_size_never_scaled(name):
    """A synthetic 300 dpi face (trim + 3 mm) with a one-pixel grid: on the shop canvas the trim's
    pixels are the same pixels, moved; past the layout's bleed the edge pixels repeat."""
    size = PRESETS[name]
    w, h = px(size.w + 6, 300), px(size.h + 6, 300)
    rng = np.random.default_rng(7)
    face = Image.fromarray(rng.integers(0, 255, (h, w, 3), dtype=np.uint8), "RGB")
    for target in (TGC[name], MPC[name]):
        out = extended(face, 3, size, 300, target)
        assert out.size == target
        a, b = np.asarray(face), np.asarray(out)
        # the trim is centred: its left edge at (target - trim) / 2, 3 mm right of the face's edge
        bleed = 3 / 25.4 * 300
        dx = math.floor((target[0] - size.w / 25.4 * 300) / 2 - bleed + 0.5)
        dy = math.floor((target[1] - size.h / 25.4 * 300) / 2 - bleed + 0.5)
        # the same pixels one for one (an offset, no resampling), away from the border
        inner = a[40:-40, 40:-40]
        assert np.array_equal(b[40 + dy : 40 + dy + inner.shape[0], 40 + dx : 40 + dx + inner.shape[1]], inner)
        if dx > 0:  # the extended columns repeat the face's outermost column
            assert np.array_equal(b[dy + 10, 0], a[10, 0])


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_tts_sheet_of_69_stays_within_4096_px(name):
    size = PRESETS[name]
    cols, rows = tts.grid(69)
    (cw, ch), dpi = tts.cell_size(size.w, size.h, cols, rows)
    assert (cols, rows) == (10, 7) and dpi <= 300
    assert cols * cw <= 4096 and rows * ch <= 4096
    assert max(cols * cw, rows * ch) > 4096 - max(cols, rows) - 10  # as large as the limit allows


@pytest.mark.parametrize("size", sorted(SIZES))
def test_shop_pngs_have_the_template_size_and_counts(games, size):
    game = games[size]
    preset = PRESETS[size]
    options = ExportOptions()
    for module, want in ((thegamecrafter, TGC[size]), (makeplayingcards, MPC[size])):
        files = module.files(game, options)
        deck = f"main-{size}"
        pngs = {name: Image.open(io.BytesIO(data)) for name, data in files.items() if name.endswith(".png")}
        assert {im.size for im in pngs.values()} == {want}
        assert all(im.mode == "RGB" and not (set(im.info) - {"dpi"}) for im in pngs.values())  # no metadata
        rows = list(csv.DictReader(io.StringIO(files[f"{deck}/counts.csv"].decode())))
        assert [r["back"] for r in rows] == ["back.png"] * 5  # one shared back, named so forms pair it
        assert f"{deck}/back.png" in files
        assert sum(int(r["count"]) for r in rows) == len(game.kit.cards)
        assert all(f"{deck}/{r['front']}" in files for r in rows)
    trimmed = cards.files(game, ExportOptions(dpi=150, bleed=False))
    sizes = {Image.open(io.BytesIO(d)).size for n, d in trimmed.items() if n.endswith(".png")}
    assert sizes == {(px(preset.w, 150), px(preset.h, 150))}


# -- DriveThruCards -------------------------------------------------------------------------------------------

RGB_OPS = {"rg", "RG", "sc", "SC", "scn", "SCN", "cs", "CS", "g", "G"}


def _streams(doc: pikepdf.Pdf):
    yield from doc.pages
    for obj in doc.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
            yield obj


@pytest.fixture(scope="module")
def dtc(games):
    """The poker game's DriveThruCards PDF."""
    game = games["poker"]
    return game, drivethrucards.files(game, ExportOptions())


def test_dtc_pages_alternate_back_and_front_at_trim_plus_an_eighth_inch(dtc):
    game, files = dtc
    assert list(files) == ["tiny-main-poker-dtc.pdf"]
    doc = pikepdf.open(io.BytesIO(files["tiny-main-poker-dtc.pdf"]))
    assert len(doc.pages) == 2 * len(game.kit.cards)
    for page in doc.pages:
        assert [float(v) for v in page.MediaBox] == pytest.approx([0, 0, 198, 270])  # 2.75 × 3.75 in
        assert [float(v) for v in page.TrimBox] == pytest.approx([9, 9, 189, 261])
        assert [float(v) for v in page.BleedBox] == pytest.approx([0, 0, 198, 270])
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(files["tiny-main-poker-dtc.pdf"])
    darkness = [255 - np.asarray(pdf[i].render(scale=0.3).to_pil().convert("L")).mean() for i in range(4)]
    assert darkness[0] > 150 and darkness[2] > 150  # backs: the skeleton's dark slate
    assert darkness[1] < 100 and darkness[3] < 100  # fronts: paper
    assert doc.pdf_version == "1.4"


def test_dtc_colours_are_cmyk_only_and_fonts_embedded(dtc):
    _, files = dtc
    doc = pikepdf.open(io.BytesIO(files["tiny-main-poker-dtc.pdf"]))
    ops = set()
    for stream in _streams(doc):
        ops |= {str(op) for _, op in pikepdf.parse_content_stream(stream)}
    assert "k" in ops and not ops & RGB_OPS
    images = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    assert images and {str(i.ColorSpace) for i in images} == {"/DeviceCMYK"}
    fonts = [o for o in doc.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/FontDescriptor"]
    assert fonts and all("/FontFile2" in f for f in fonts)
    names = {str(o.BaseFont) for o in doc.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"}
    assert not any("Helvetica" in n for n in names)
    assert str(doc.docinfo.Trapped) == "/False"


def test_black_is_k_only_and_ink_is_capped_at_240_percent():
    converter = Converter()
    assert converter.colour((0.0, 0.0, 0.0)) == (0, 0, 0, 1)
    assert converter.colour((0.5, 0.5, 0.5)) == (0, 0, 0, 0.5)
    for rgb in ((0.2, 0.0, 0.1), (0.1, 0.1, 0.3), (0.6, 0.1, 0.1)):
        assert sum(converter.colour(rgb)) <= 2.4 + 1e-6
    image = Image.new("RGB", (3, 1))
    image.putdata([(0, 0, 0), (40, 0, 20), (255, 255, 255)])
    cmyk = np.asarray(converter.image(image), dtype=float) / 255
    assert tuple(cmyk[0, 0]) == (0, 0, 0, 1) and tuple(cmyk[0, 2]) == (0, 0, 0, 0)
    assert cmyk.sum(axis=2).max() <= 2.4


def test_dtc_is_pdfx_1a_with_a_registered_output_intent(games):
    files = drivethrucards.files(games["mini-american"], ExportOptions())
    doc = pikepdf.open(io.BytesIO(files["minis-main-mini-american-dtc.pdf"]))
    (intent,) = doc.Root.OutputIntents
    assert str(intent.S) == "/GTS_PDFX"
    assert str(intent.OutputConditionIdentifier) == "CGATS TR 001"
    assert str(intent.RegistryName) == "http://www.color.org"
    assert "/DestOutputProfile" not in intent  # a registered condition: PDF/X-1a needs no embedded profile
    info = doc.docinfo
    assert str(info.GTS_PDFXVersion) == "PDF/X-1a:2003" and str(info.Trapped) == "/False"
    assert str(info.Title) and str(info.CreationDate).startswith("D:") and str(info.ModDate).startswith("D:")
    assert len(doc.trailer.ID) == 2 and doc.pdf_version == "1.4"
    assert [float(v) for v in doc.pages[0].MediaBox] == pytest.approx([0, 0, 144, 198])  # 2 × 2.75 in
    assert not pdfx.transparent(doc)


def test_dtc_ink_and_resolution_measured_from_the_pdf(dtc):
    """Every vector fill and stroke, and every pixel of every image, asks for at most 240 % ink; every
    image is at least 300 ppi where it is placed."""
    _, files = dtc
    doc = pikepdf.open(io.BytesIO(files["tiny-main-poker-dtc.pdf"]))
    painted = pdfinspect.painted(doc)
    assert painted.paints and painted.images
    assert {p.colour.space for p in painted.paints} == {"DeviceCMYK"}
    assert max(p.colour.ink for p in painted.paints) <= 2.4 + 1e-9
    assert max(pdfinspect.image_ink(i) for i in painted.images) <= 2.4
    assert min(i.ppi for i in painted.images) >= 300 - 0.01  # the placement is written to 5 digits
    assert {i.colour_space for i in painted.images} == {"DeviceCMYK"}


def test_dtc_near_black_text_is_k_only_with_overprint(dtc):
    _, files = dtc
    texts = pdfinspect.painted(pikepdf.open(io.BytesIO(files["tiny-main-poker-dtc.pdf"]))).texts
    dark = [t for t in texts if t.colour.values[3] >= 0.6 and max(t.colour.values[:3]) <= 0.25]
    assert dark and all(t.colour.values[:3] == (0, 0, 0) and t.overprint for t in dark)
    fonts = {t.font for t in texts}
    assert fonts and not any(f.startswith("AAAAAA+") for f in fonts)


EXPORT_SHA = """
import hashlib, sys
from pathlib import Path
from generator.export import drivethrucards
from generator.export.common import laid_out
from generator.export.options import ExportOptions
from generator.pipeline import Pipeline
game = laid_out(Pipeline(Path(sys.argv[1]), "tiny"))
for name, data in sorted(drivethrucards.files(game, ExportOptions()).items()):
    print(name, hashlib.sha256(data).hexdigest())
"""
GS_ICC = "/usr/share/color/icc/ghostscript"


def _export_sha(project: Path, prelude: str = "") -> str:
    import subprocess
    import sys

    script = f"{prelude}\n{sys.executable} -c '{EXPORT_SHA}' {project}"
    done = subprocess.run(["unshare", "-m", "sh", "-euc", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root for a private mount namespace"
)
def test_dtc_bytes_are_the_same_with_and_without_a_system_cmyk_profile(project, tmp_path):
    """In mount namespaces: once with Ghostscript's CMYK profiles hidden, once with files at their paths."""
    fake = tmp_path / "share"
    (fake / "color/icc/ghostscript").mkdir(parents=True)
    for name in ("default_cmyk.icc", "ps_cmyk.icc"):
        (fake / "color/icc/ghostscript" / name).write_bytes(b"not read: cardpress looks for no profile")
    hide = f"if [ -d {GS_ICC} ]; then mount -t tmpfs none {GS_ICC}; fi"
    show = (
        f"mount --bind {fake}/color /usr/share/color 2>/dev/null || (mount -t tmpfs none /usr/share"
        f" && mkdir -p /usr/share/color && cp -r {fake}/color/. /usr/share/color); test -f {GS_ICC}/default_cmyk.icc"
    )
    hidden, shown = _export_sha(project, hide), _export_sha(project, show)
    assert hidden == shown and "tiny-main-poker-dtc.pdf" in hidden


def test_dtc_opens_no_colour_profile(games, monkeypatch):
    from PIL import ImageCms

    def refuse(*args, **kwargs):
        raise AssertionError("the default press file must not read a colour profile")

    monkeypatch.setattr(ImageCms, "getOpenProfile", refuse)
    monkeypatch.setattr(ImageCms, "buildTransform", refuse)
    assert drivethrucards.files(games["poker"], ExportOptions())


# -- Tabletop Simulator ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 9, 10, 16, 59, 60, 69])
def test_tts_grid_leaves_the_last_cell_free(count):
    cols, rows = tts.grid(count)
    assert cols <= 10 and rows <= 7 and cols * rows > count
    assert cols * (rows - 1) <= count  # no empty row


def test_a_tts_sheet_holds_at_most_69():
    with pytest.raises(ValueError, match="1 to 69"):
        tts.grid(70)


def test_a_big_deck_spreads_over_sheets_with_their_own_keys():
    def card(i):
        return Card(f"c{i}", f"Card {i}", "big", Face("f", {}, f"c{i}/front"), Face("b", {}, "back"), PRESETS["poker"])

    small = Deck("small", "small", PRESETS["poker"], [card(i) for i in range(3)])
    big = Deck("big", "big", PRESETS["poker"], [card(i) for i in range(150)])
    planned = tts.plan([small, big])
    assert [(s.key, len(s.slots), s.cols, s.rows) for _, sheets in planned for s in sheets] == [
        (1, 3, 4, 1),
        (2, 69, 10, 7),
        (3, 69, 10, 7),
        (4, 12, 10, 2),
    ]


@pytest.fixture(scope="module")
def tts_files(games):
    return tts.files(games["poker"], ExportOptions(url_prefix="https://example.org/tiny/"))


def test_tts_saved_object_ids_names_and_urls(games, tts_files):
    game = games["poker"]
    save = json.loads(tts_files["tiny.json"])
    (deck,) = save["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    assert deck["CustomDeck"] == {
        "1": {
            "FaceURL": "https://example.org/tiny/main-poker-1.png",
            "BackURL": "https://example.org/tiny/main-poker-back.png",
            "NumWidth": 6,
            "NumHeight": 1,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
    }
    contained = deck["ContainedObjects"]
    fronts = list(dict.fromkeys(card.front.key for card in game.kit.cards))  # copies share a slot
    want = [100 + fronts.index(card.front.key) for card in game.kit.cards]
    assert deck["DeckIDs"] == [c["CardID"] for c in contained] == want
    assert len(want) == 10 and max(want) == 104
    assert [c["Nickname"] for c in contained] == [card.name for card in game.kit.cards]
    guids = [deck["GUID"]] + [c["GUID"] for c in contained]
    assert len(set(guids)) == len(guids) and all(len(g) == 6 and int(g, 16) >= 0 for g in guids)
    local = tts.files(game, ExportOptions(out=Path("/srv/out")))["tiny.json"]
    assert local == tts.files(game, ExportOptions(out=Path("/srv/out")))["tiny.json"]  # the same bytes every time
    (entry,) = json.loads(local)["ObjectStates"][0]["CustomDeck"].values()
    assert entry["FaceURL"] == "file:///srv/out/tiny/tts/main-poker-1.png"  # no prefix: the exported file itself
    assert entry["BackURL"] == "file:///srv/out/tiny/tts/main-poker-back.png"


@pytest.mark.parametrize(
    ("size", "want"),
    [("poker", (1.0, 1.0)), ("mini-american", (0.7, 0.7143)), ("tarot", (1.1, 1.3571)), ("square", (1.4, 1.0))],
)
def test_tts_cards_keep_their_own_aspect(size, want):
    assert tts.scale(PRESETS[size]) == pytest.approx(want, abs=1e-4)


def test_tts_sheet_slots_run_left_to_right(games, tts_files):
    """Each slot of the sheet is the face of the card whose CardID names it (compared at the cell's centre)."""
    game = games["poker"]
    sheet = Image.open(io.BytesIO(tts_files["main-poker-1.png"]))
    (deck,) = tts.plan(game.decks())
    first = deck[1][0]
    assert sheet.size == (first.cols * first.cell[0], first.rows * first.cell[1])
    assert max(sheet.size) <= 4096
    faces = cards.files(game, ExportOptions(dpi=first.dpi, bleed=False))
    for slot, pair in enumerate(first.slots):
        own = Image.open(io.BytesIO(faces[f"main-poker/{pair.front()}"])).convert("RGB")
        cell = sheet.crop((slot * first.cell[0], 0, (slot + 1) * first.cell[0], first.cell[1]))
        a = np.asarray(own.resize(first.cell), dtype=float)
        b = np.asarray(cell, dtype=float)
        assert np.abs(a - b).mean() < 3, slot
    last = sheet.crop((5 * first.cell[0], 0, 6 * first.cell[0], first.cell[1]))
    assert np.asarray(last).min() == 255  # the free cell


# -- bundle ---------------------------------------------------------------------------------------------------


def test_bundle_manifest_checksums_and_a_byte_identical_rebuild(project, monkeypatch):
    # a bundle of the mini game, home kits on A4 only (the manifest and zip logic do not depend on paper)
    monkeypatch.setattr(bundle, "HOME_VARIANTS", ({}, {"low_ink": True}))
    files, report = bundle.TARGET.files(ExportJob(project, "minis", ExportOptions()))
    assert report.ok(), report.render()
    name = "minis-bundle.zip"
    assert sorted(files) == [
        name,
        "tts/README.md",
        "tts/main-mini-american-1.png",
        "tts/main-mini-american-back.png",
        "tts/minis.json",
    ]
    archive = zipfile.ZipFile(io.BytesIO(files[name]))
    infos = archive.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert {i.external_attr >> 16 for i in infos} == {0o100644}
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["title"] == "Minis" and manifest["cardpress"]
    listed = {f["path"]: f for f in manifest["files"]}
    assert set(listed) == {i.filename for i in infos} - {"manifest.json"}
    for path, entry in listed.items():
        data = archive.read(path)
        assert (entry["size"], entry["sha256"]) == (len(data), hashlib.sha256(data).hexdigest())
    assert {p.split("/")[0] for p in listed} == {
        *("pnp", "thegamecrafter", "makeplayingcards", "drivethrucards"),
        *("tts", "ttpg", "screentop"),
    }
    assert "pnp/minis-a4-4p-long-edge-low-ink.pdf" in listed
    again, _ = bundle.TARGET.files(ExportJob(project, "minis", ExportOptions()))
    assert again[name] == files[name]


def test_low_ink_spends_well_under_the_normal_kit(games, project):
    """Mean darkness (0 white … 1 black) of the backs page, rastered: the skeleton's dark backs."""
    import pypdfium2 as pdfium

    from generator.export import pnp

    darkness = {}
    for low in (False, True):
        options = ExportOptions(papers=("a4",), low_ink=low)
        (data,) = pnp.files(pnp.pipeline(project, "tiny", options), options).values()
        page = pdfium.PdfDocument(data)[3]  # cover, duplex check, fronts, backs
        grey = np.asarray(page.render(scale=50 / 72).to_pil().convert("L"), dtype=float)
        darkness[low] = 1 - grey.mean() / 255
    assert darkness[False] > 0.45
    assert darkness[True] < darkness[False] / 4
    print(f"backs page darkness: normal {darkness[False]:.3f}, low-ink {darkness[True]:.3f}")


def test_low_ink_keeps_every_string_and_icon_and_lightens_every_fill(project):
    from generator.layout.document import walk
    from generator.layout.lowink import luminance

    def elements(variant):
        faces = Pipeline(project, "tiny", variant=variant).layout()
        return {key: list(walk(prepared.doc.elements)) for key, prepared in faces.items()}

    normal, low = elements(""), elements("low-ink")
    assert normal.keys() == low.keys()
    for key in normal:
        for a, b in zip(normal[key], low[key], strict=True):
            assert (a.kind, a.props.get("text"), a.props.get("rich"), a.props.get("name")) == (
                b.kind,
                b.props.get("text"),
                b.props.get("rich"),
                b.props.get("name"),
            )
            if b.props.get("fill"):
                assert luminance(b.props["fill"]) > 0.6, (key, b.name)
