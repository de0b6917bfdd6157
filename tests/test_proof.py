"""Proofs: PNGs of each face rasterized from the kit's own drawing, redrawn only when their inputs change."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from conftest import ROOT, run_cli
from pdfinspect import placements
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from generator.build import build
from generator.iterate.session import Session

DPI = 100


@pytest.fixture(scope="module")
def proofs(tmp_path_factory):
    """Proof the whole shipped kit once, with a contact sheet."""
    out = tmp_path_factory.mktemp("proofs")
    session = Session(ROOT, "pocket-foundry", out, dpi=DPI, pdfs=False, contact=True)
    outcome = session.rebuild()
    assert outcome.ok, outcome.report.render()
    return session, outcome, out / "pocket-foundry" / "proofs"


def test_every_face_gets_a_proof_at_the_asked_resolution(proofs):
    _, outcome, folder = proofs
    names = sorted(p.name for p in folder.glob("*.png"))
    assert len(names) == 16 + 1 + 2 + 2 + 1  # market fronts and back, starter front and back, two pages, contact
    assert {
        "feed-belt-1.front.png",
        "market-back.png",
        "starter-feeder.front.png",
        "starter-feeder.back.png",
        "mat.png",
        "lap-record.png",
        "contact.png",
    } <= set(names)
    card = Image.open(folder / "feed-belt-1.front.png")
    assert card.size == (round(69.5 / 25.4 * DPI), round(94.9 / 25.4 * DPI))  # trim + 3 mm bleed each side
    assert round(card.info["dpi"][0]) == DPI
    manifest = json.loads((folder / "proofs.json").read_text())
    assert set(manifest["faces"]) == {e.key for e in outcome.entries}


def test_contact_sheet_shows_every_face_in_order(proofs):
    _, outcome, folder = proofs
    assert [e.key for e in outcome.entries][:2] == ["feed-belt-1/front", "feed-belt-2/front"]
    assert [e.key for e in outcome.entries][-4:] == ["market-back", "starter-feeder/back", "mat", "lap-record"]
    sheet = Image.open(folder / "contact.png")
    assert sheet.width >= 1400 and sheet.height > sheet.width


def test_a_proof_is_the_kit_drawing_itself(tmp_path):
    """The proof of a face and the same face on a printed sheet agree pixel for pixel.

    At 508 dpi every edge involved (Letter's 19.05 and 12.7 mm margins, the card, the 3 mm bleed) falls
    on a whole pixel, so the two rasterizations can be compared without resampling. On Letter the cards
    lie turned a quarter, which a raster undoes exactly.
    """
    dpi = 508
    outcome = Session(ROOT, "pocket-foundry", tmp_path, dpi=dpi, pdfs=False).rebuild(only=["feed-belt-1"])
    assert outcome.ok
    (pdf,) = build(ROOT, "pocket-foundry", papers=["letter"], players=None, out=tmp_path).written
    card = placements(PdfReader(pdf), 2)[0]  # feed-belt-1, top-left of the first sheet
    assert (round(card.x, 2), round(card.bottom - card.h, 2), card.turn) == (19.05, 12.7, 1)
    page = pdfium.PdfDocument(str(pdf))[2]
    left, top = round(19.05 / 25.4 * dpi), round(12.7 / 25.4 * dpi)  # 381 and 254 px
    # render the whole page and crop with Pillow (pdfium's own crop rounds a pixel off each side), then
    # turn the card upright: its top lies at the page's left
    kit = page.render(scale=dpi / 72).to_pil().convert("RGB").crop((left, top, left + 1778, top + 1270))
    kit = kit.transpose(Image.Transpose.ROTATE_270)
    proof = Image.open(tmp_path / "pocket-foundry/proofs/feed-belt-1.front.png").convert("RGB")
    bleed = 60  # 3 mm at 508 dpi
    assert kit.size == (1270, 1778)
    ours = proof.crop((bleed, bleed, bleed + 1270, bleed + 1778))
    difference = ImageChops.difference(ours, kit)
    assert max(ImageStat.Stat(difference).mean) < 1.5  # only anti-aliasing along edges differs
    edges = difference.convert("L").point(lambda v: 255 if v > 40 else 0)
    assert ImageStat.Stat(edges).mean[0] / 255 < 0.015
    ticket = Session(ROOT, "pocket-foundry", tmp_path / "other", dpi=dpi, pdfs=False)
    ticket.rebuild(only=["ticket-stamp-1"])
    other = Image.open(tmp_path / "other/pocket-foundry/proofs/ticket-stamp-1.front.png").convert("RGB")
    unlike = ImageChops.difference(other.crop((bleed, bleed, bleed + 1270, bleed + 1778)), kit)
    assert max(ImageStat.Stat(unlike).mean) > 10  # what a different card looks like, for scale


def test_unchanged_faces_are_not_redrawn(proofs):
    session, _, folder = proofs
    before = {p.name: p.stat().st_mtime_ns for p in folder.glob("*.png")}
    again = session.rebuild()
    assert again.ok and again.rendered == [] and again.proofed == []
    assert {p.name: p.stat().st_mtime_ns for p in folder.glob("*.png")} == before
    fresh = Session(ROOT, "pocket-foundry", folder.parent.parent, dpi=DPI, pdfs=False)  # a new process, say
    assert fresh.rebuild().proofed == []  # the manifest remembers what each proof was made from


def test_overlay_marks_trim_and_safe_zone(tmp_path):
    outcome = Session(ROOT, "pocket-foundry", tmp_path, dpi=DPI, overlay=True, pdfs=False).rebuild(only=["feed-belt-1"])
    assert outcome.ok and sorted(outcome.proofed) == ["feed-belt-1/front", "market-back"]
    proof = Image.open(tmp_path / "pocket-foundry/proofs/market-back.png").convert("RGB")
    trim = round(3 / 25.4 * DPI)
    r, g, b = proof.getpixel((trim, proof.height // 2))
    assert b > r + 60, (r, g, b)  # the cyan trim line (0.8 px wide at 100 dpi) over the dark back
    plain = Image.open(ROOT / "cards/pocket-foundry/art/feed-belt.png")  # (the art is not overlaid)
    assert plain.size == (632, 319)


def test_proof_one_card_from_the_command_line(project):
    result = run_cli(
        "proof", "pocket-foundry", "--card", "sort-scoop", "--dpi", "72", "--root", str(project), cwd=project
    )
    assert result.returncode == 0, result.stderr
    folder = project / "output/pocket-foundry/proofs"
    assert sorted(p.name for p in folder.glob("*.png")) == [
        "market-back.png",
        "sort-scoop-1.front.png",
        "sort-scoop-2.front.png",
    ]
    assert result.stdout.startswith(
        "pocket-foundry: 3 proofs in output/pocket-foundry/proofs/ (3 redrawn, 0 unchanged) in "
    )


def test_proof_mistakes_get_diagnostics_and_keep_the_proofs(project):
    folder = project / "output/pocket-foundry/proofs"
    folder.mkdir(parents=True)
    (folder / "feed-belt-1.front.png").write_bytes(b"last good")
    result = run_cli("proof", "pocket-foundry", "--card", "feed-blet", "--root", str(project), cwd=project)
    assert result.returncode == 1
    assert result.stderr == (
        "error[P001] no card or page 'feed-blet' in pocket-foundry\n"
        "  = hint: did you mean 'feed-belt'?\n\n1 error, 0 warnings\n"
    )
    machines = project / "cards/pocket-foundry/machines.yaml"
    machines.write_text(machines.read_text().replace("copies: 2", "copies: two", 1))
    broken = run_cli("proof", "pocket-foundry", "--root", str(project), cwd=project)
    assert broken.returncode == 1 and "error[S001] machines[0].copies" in broken.stderr
    assert "Traceback" not in broken.stderr
    assert (folder / "feed-belt-1.front.png").read_bytes() == b"last good"
