"""The home kit through `export --to pnp`: file names per variant, backs behind fronts, marks that print, CLI errors."""

from __future__ import annotations

import pdfplumber
import pytest
from conftest import copy_project, run_cli
from pdfinspect import page_lines, placements
from pypdf import PdfReader

from generator.export.options import ExportOptions
from generator.export.runner import run
from generator.impose.sheets import PAPERS, PrintOptions
from generator.project.scaffold import new_game

VARIANTS = {
    "long": ExportOptions(),
    "short-offset": ExportOptions(print_options=PrintOptions(duplex="short", back_offset=(1.5, -0.5))),
    "gutterfold": ExportOptions(print_options=PrintOptions(duplex="gutterfold"), players=2),
}
NAMES = {
    "long": "tiny-{paper}-4p-long-edge.pdf",
    "short-offset": "tiny-{paper}-4p-short-edge-offset+1.5-0.5mm.pdf",
    "gutterfold": "tiny-{paper}-2p-gutterfold.pdf",
}


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """The scaffolded poker game exported in each variant on both papers: {(variant, paper): path}."""
    base = tmp_path_factory.mktemp("pnp")
    project = copy_project(base / "project", games=())
    new_game(project, "tiny")
    out = base / "out"
    paths = {}
    for variant, options in VARIANTS.items():
        result = run(project, "tiny", ["pnp"], out, options)
        assert not result.failed, result.report.render()
        for paper in PAPERS:
            paths[variant, paper] = out / "tiny" / "pnp" / NAMES[variant].format(paper=paper)
    return paths, project


def test_every_variant_has_a_file_of_its_own(kits):
    paths, _ = kits
    assert all(p.is_file() for p in paths.values())
    assert len({p.name for p in paths.values()}) == len(paths)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_short_edge_backs_with_an_offset_sit_behind_their_fronts(kits, paper):
    paths, _ = kits
    reader = PdfReader(paths["short-offset", paper])
    _, width, height = PAPERS[paper]
    fronts, backs = placements(reader, 2), placements(reader, 3)
    assert len(fronts) == len(backs) > 0
    for f, b in zip(fronts, backs):
        # mirrored top to bottom, turned round; the offset (1.5, -0.5) reads upside down on the page
        assert (b.x, b.bottom) == (
            pytest.approx(f.x - 1.5, abs=0.01),
            pytest.approx(height - f.bottom + f.h + 0.5, abs=0.01),
        )
        assert b.turn == {0: 2, 1: 1}[f.turn]  # Letter's quarter-turned cards are turned the other way round


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_gutterfold_backs_mirror_their_fronts_across_the_fold(kits, paper):
    paths, _ = kits
    reader = PdfReader(paths["gutterfold", paper])
    _, width, height = PAPERS[paper]
    cards = placements(reader, 1)
    half = len(cards) // 2
    fronts, backs = cards[:half], cards[half:]
    with pdfplumber.open(paths["gutterfold", paper]) as pdf:
        folds = [ln for ln in pdf.pages[1].lines if ln.get("dash") and ln["dash"][0]]
    assert len(folds) == 1
    vertical = abs(folds[0]["x0"] - folds[0]["x1"]) < 0.01
    for f, b in zip(fronts, backs):
        if vertical:  # the back is the front's mirror image across x = width / 2
            assert (b.x + b.w, b.bottom) == (pytest.approx(width - f.x, abs=0.01), pytest.approx(f.bottom, abs=0.01))
        else:  # across y = height / 2, upside down
            assert (b.x, b.bottom - b.h) == (pytest.approx(f.x, abs=0.01), pytest.approx(height - f.bottom, abs=0.01))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_crop_mark_is_5_mm_from_the_paper_edge(kits, variant, paper):
    paths, _ = kits
    _, width, height = PAPERS[paper]
    with pdfplumber.open(paths[variant, paper]) as pdf:
        for index in range(2, len(pdf.pages)):  # the card sheets (the cover has rulers of its own)
            if "Tuck box" in (pdf.pages[index].extract_text() or ""):
                continue  # the tuck boxes' pages and their blank backs: tests/test_kit_boxes.py
            # a back offset moves a backs page on purpose: the printer's drift takes it back to 5 mm
            edge = 5 - (1.5 if variant == "short-offset" and index % 2 else 0)
            marks = [ln for ln in page_lines(pdf, index) if ln[0] == ln[2] or ln[1] == ln[3]]
            assert marks
            for x0, top, x1, bottom in marks:
                assert min(x0, top) >= edge - 0.01 and x1 <= width - edge + 0.01 and bottom <= height - edge + 0.01


def test_a_bad_back_offset_is_a_diagnostic_and_nothing_is_written(kits, tmp_path):
    _, project = kits
    done = run_cli("export", "tiny", "--to", "pnp", "--back-offset", "1.5", "--out", str(tmp_path / "o"), cwd=project)
    assert done.returncode == 1
    assert "error[X001] --back-offset must be X,Y in mm, like 1.5,-0.5, not '1.5'" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "o").exists()
    done = run_cli("export", "tiny", "--to", "pnp", "--back-offset", "12,0", "--out", str(tmp_path / "o"), cwd=project)
    assert done.returncode == 1 and "is beyond 10 mm" in done.stderr


def test_the_preview_loop_writes_beside_a_built_kit_never_over_it(kits, tmp_path):
    from generator.iterate.session import Session

    _, project = kits
    out = tmp_path / "out"
    kit = out / "tiny" / "tiny-a4.pdf"
    kit.parent.mkdir(parents=True)
    kit.write_bytes(b"a 2-player kit the user built")
    session = Session(project, "tiny", out, dpi=30, papers=["a4"], pdfs=True, preview=True)
    outcome = session.rebuild()
    assert outcome.ok, outcome.report.render()
    assert kit.read_bytes() == b"a 2-player kit the user built"
    assert (out / "tiny" / "preview" / "tiny-a4.pdf").read_bytes().startswith(b"%PDF")
    assert any((out / "tiny" / "preview" / "proofs").glob("*.png"))
    assert not (out / "tiny" / "proofs").exists()
