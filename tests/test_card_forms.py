"""A face printed more than once is one Form XObject placed for every copy; a face printed once is drawn in
place, clipped to its own bleed as a form is, and marked /CardFace with the box its form would have had."""

from __future__ import annotations

import io
from pathlib import Path

from deck_helpers import deck_project
from pdfinspect import placements
from pypdf import PdfReader
from pypdf.generic import ContentStream

from generator.pipeline import Pipeline

MM = 72 / 25.4


def _kit(tmp_path: Path) -> PdfReader:
    project = deck_project(tmp_path, csv="name,copies,cost,text\nAnt,2,1,Nap.\nBee,1,2,Buzz.\nCat,3,0,Nap.\n")
    pdfs = Pipeline(project, "tiny", missing_art="placeholder").render(["a4"])
    assert pdfs is not None
    return PdfReader(io.BytesIO(pdfs["a4"]))


def _sheet(reader: PdfReader, side: str) -> int:
    return next(i for i, page in enumerate(reader.pages) if f"sheet 1 of 1: {side}" in page.extract_text())


def test_copies_share_a_form_and_a_single_face_is_drawn_in_place(tmp_path: Path) -> None:
    reader = _kit(tmp_path)
    fronts = placements(reader, _sheet(reader, "fronts"))
    names = [p.form for p in fronts]
    # Ant, Ant, Bee, Cat, Cat, Cat in the grid's order: two forms, one face drawn in place
    assert names[0] == names[1] != names[3] == names[4] == names[5]
    assert names[2] == "inline1" and sum(n.startswith("inline") for n in names) == 1
    assert {(round(p.w, 3), round(p.h, 3)) for p in fronts} == {(63.5, 88.9)}  # all at trim size
    backs = placements(reader, _sheet(reader, "backs"))
    assert len(backs) == 6 and len({p.form for p in backs}) == 1  # the shared back: one form


def test_a_face_drawn_in_place_is_clipped_to_its_bleed_and_marked(tmp_path: Path) -> None:
    reader = _kit(tmp_path)
    page = reader.pages[_sheet(reader, "fronts")]
    ops = ContentStream(page.get_contents(), reader).operations
    marked = [i for i, (operands, op) in enumerate(ops) if op == b"BDC" and operands[0] == "/CardFace"]
    assert len(marked) == 1
    box = [round(float(v) / MM, 3) for v in ops[marked[0]][0][1]["/BBox"]]
    assert box == [-3, -3, 66.5, 91.9]  # trim 63.5 × 88.9 mm grown by the face's 3 mm of bleed
    # saved, clipped to its slot, moved to its trim; then drawn, the marked sequence closed, restored
    assert [op for _, op in ops[marked[0] - 6 : marked[0]]] == [b"q", b"n", b"re", b"W*", b"n", b"cm"]
    after = [op for _, op in ops[marked[0] + 1 :]]
    assert after.count(b"EMC") == 1 and after[after.index(b"EMC") + 1] == b"Q"
