"""Imposition is a pipeline stage: each paper's sheets and page plan are computed once and drawn as planned."""

from __future__ import annotations

import io

import pytest
from conftest import ROOT
from pypdf import PdfReader

import generator.impose.plan as plan_module
from generator import pipeline as pipeline_module
from generator.impose.plan import Imposition, PagePlan, Part, assemble, impose
from generator.impose.sheets import PrintOptions
from generator.pipeline import Pipeline


def test_each_paper_is_imposed_once_for_lint_pages_and_render(monkeypatch):
    calls: list[str] = []

    def counted(kit, paper, options=None):
        calls.append(paper)
        return impose(kit, paper, options)

    monkeypatch.setattr(pipeline_module, "impose", counted)
    pipeline = Pipeline(ROOT, "micro-engine")
    pipeline.lint()
    pipeline.pages("a4")
    first = pipeline.imposition("a4")
    pdfs = pipeline.render()
    assert pdfs is not None and sorted(calls) == ["a4", "letter"]
    assert pipeline.imposition("a4") is first


def test_the_pdf_holds_the_planned_pages_in_order():
    pipeline = Pipeline(ROOT, "micro-engine")
    imposed = pipeline.imposition("letter")
    assert isinstance(imposed, Imposition)
    pdfs = pipeline.render(["letter"])
    assert pdfs is not None
    reader = PdfReader(io.BytesIO(pdfs["letter"]))
    assert len(reader.pages) == len(imposed.plan.pages)
    kinds = [p.kind for p in imposed.plan.pages]
    assert kinds[:2] == ["cover", "duplex"]
    boxes = 2 * 4  # four tuck box pages on Letter, each with its blank back
    assert set(kinds[2:-boxes]) <= {"fronts", "backs"} and kinds[-boxes:] == ["page", "blank"] * 4


def test_the_writer_lays_nothing_out(monkeypatch):
    pipeline = Pipeline(ROOT, "micro-engine")
    assert pipeline.imposition("a4") is not None

    def refuse(*args, **kwargs):
        raise AssertionError("laid out again")

    monkeypatch.setattr(plan_module, "kit_sheets", refuse)
    monkeypatch.setattr(plan_module, "plan", refuse)
    monkeypatch.setattr("generator.impose.sheets.Sheet.sides", refuse)
    assert pipeline.render(["a4"]) is not None


def test_parts_number_their_pages_on_the_cover():
    parts = [
        Part("This sheet", "settings", (PagePlan("cover", "c"), PagePlan("duplex", "d"))),
        Part("Rules", "one page", (PagePlan("rules", "r"),)),
        Part("Deck", "two sheets", tuple(PagePlan("fronts", f"f{i}") for i in range(4))),
    ]
    result = assemble(parts)
    assert [p.label for p in result.pages] == ["c", "d", "r", "f0", "f1", "f2", "f3"]
    assert [(c["pages"], c["title"]) for c in result.contents] == [
        ("1–2", "This sheet"),
        ("3", "Rules"),
        ("4–7", "Deck"),
    ]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_sheet_error_is_reported_once_per_paper(paper):
    pipeline = Pipeline(ROOT, "micro-engine", options=PrintOptions(grids={"core": (9, 9)}))
    assert pipeline.imposition(paper) is None
    assert pipeline.imposition(paper) is None
    codes = [d.code for d in pipeline.report.items]
    assert codes == ["B005"]
