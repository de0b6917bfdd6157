"""Golden drawing logs: what a face draws, op by op, rounded, for a few representative faces."""

from __future__ import annotations

import pytest
from conftest import ROOT, check_golden

from generator.pipeline import Pipeline
from generator.render.draw import draw
from generator.render.painters import RecordingPainter


@pytest.fixture(scope="module")
def prepared():
    pipeline = Pipeline(ROOT, "pocket-foundry", players=4)
    faces = pipeline.layout()
    assert pipeline.report.ok(), pipeline.report.render()
    return pipeline.studio(), faces


@pytest.mark.parametrize("face", ["feed-belt-1/front", "return-chute-2/front", "starter-feeder/front", "market-back"])
def test_face_drawing_log(prepared, face, update_goldens):
    studio, faces = prepared
    painter = RecordingPainter()
    draw(faces[face], painter, studio.fonts, studio.icons)
    name = face.replace("/", "-")
    check_golden(f"drawlog/{name}.txt", "\n".join(painter.log) + "\n", update_goldens)


def test_drawing_log_shows_the_run_text_in_order(prepared):
    studio, faces = prepared
    painter = RecordingPainter()
    draw(faces["return-chute-1/front"], painter, studio.fonts, studio.icons)
    texts = [line.split(" ", 6)[6] for line in painter.log if line.startswith("text ")]
    assert texts[:2] == ["'Return Chute'", "' · copy 1'"]
    assert "'RUN:'" in texts and "' Pay '" in texts
