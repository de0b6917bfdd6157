"""CPU budgets: every stage of a face and of a kit stops a runaway face with a located error, counted in CPU
time (never the wall clock), so a busy machine never turns a valid deck into errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from deck_helpers import deck_project

from generator.diagnostics import Report
from generator.layout import cpu, sandbox
from generator.layout import templates as tpl
from generator.pipeline import Pipeline

# 380 text boxes of 10,000 characters each, every one different (so no text setting is reused): all within
# the layout schema's limits, and once a face that took minutes.
HUGE = """\
bleed: 3
elements:
{% for i in range(380) %}
- text: {x: 4, y: 4, w: 55, h: 80, size: 9, min_size: 6, rich: {{ (("w" ~ i ~ " ") * (10000 // ((i|string|length) + 2)))[:10000]|q }}}
{% endfor %}
"""


def _project(tmp_path: Path, front: str) -> Path:
    return deck_project(tmp_path, csv="name,copies,cost,text\nAnt,1,1,x\n", files={"layouts/front.yaml.j2": front})


def _render(project: Path) -> Pipeline:
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    assert pipeline.render(["a4"]) is None
    return pipeline


def _tight(monkeypatch: pytest.MonkeyPatch, stage: str, seconds: float) -> None:
    """Give only `stage` a small budget per face: the others keep theirs, so which stage runs out first does not
    depend on how fast this machine parses (or renders) the large layouts these tests make."""
    allowance = cpu.Meter.allowance

    def tight(meter: cpu.Meter, name: str) -> cpu.Allowance:
        return cpu.Allowance(name, seconds, kit=False) if name == stage else allowance(meter, name)

    monkeypatch.setattr(cpu.Meter, "allowance", tight)


def test_a_face_of_380_huge_text_boxes_ends_within_its_budget_with_a_located_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tight(monkeypatch, "text setting", 0.3)
    pipeline = _render(_project(tmp_path, HUGE))
    (over,) = [d for d in pipeline.report.errors if d.code == "T004"]
    assert over.headline() == (
        "cards/tiny/layouts/front.yaml.j2:1:1: error[T004] ant/front: text setting used more than 0.3 s of CPU time "
        "(the budget for the text setting of one face)"
    )
    # The face went no further: nothing of it was drawn or linted (each box overflows, and all of them collide).
    assert [d.code for d in pipeline.report.items if "ant/front" in d.message] == ["T004"]


def test_the_error_is_located_at_the_element_being_worked_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warm = Pipeline(deck_project(tmp_path / "warm"), "tiny", missing_art="placeholder")
    assert warm.render(["a4"]) is not None  # what a process does once (compiling the schemas) is not timed below
    _tight(monkeypatch, "text setting", 0.05)
    boxes = [
        f"- text: {{id: box{i}, x: 4, y: 4, w: 55, h: 80, size: 9, min_size: 6, rich: {{{{ ('b{i} ' * 2400)|q }}}}}}"
        for i in range(40)
    ]
    pipeline = _render(_project(tmp_path, "bleed: 3\nelements:\n" + "\n".join(boxes) + "\n"))
    (over,) = [d for d in pipeline.report.errors if d.code == "T004"]
    assert over.loc is not None and over.loc.file == "cards/tiny/layouts/front.yaml.j2"
    assert over.loc.line >= 3 and over.loc.text.startswith(f"- text: {{id: box{over.loc.line - 3}, ")
    assert over.message == (
        "ant/front: text setting used more than 0.05 s of CPU time (the budget for the text setting of one face)"
    )


def test_a_face_cut_short_by_a_stage_budget_is_not_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cpu, "FACE_SECONDS", 0.0)
    project = _project(tmp_path, "bleed: 3\nelements:\n- text: {x: 4, y: 4, w: 55, h: 10, text: Hello}\n")
    _render(project)
    monkeypatch.undo()
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path / "cache"))
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    assert pipeline.render(["a4"]) is not None, pipeline.report.render()


def test_a_stage_runs_on_what_is_left_of_the_kits_budget() -> None:
    meter = cpu.Meter(face_seconds=5.0, kit_seconds=0.02)
    with pytest.raises(cpu.OverBudget) as raised, meter.stage("lint"):
        while True:
            cpu.tick()
    assert raised.value.message("a/front") == (
        "a/front: lint used more than 0.02 s of CPU time (the budget for every face's lint of this build)"
    )
    with pytest.raises(cpu.OverBudget), meter.stage("lint"):  # nothing is left for the next face
        pass
    with meter.stage("drawing"):  # another stage has its own
        cpu.tick()


def test_work_outside_a_stage_is_never_stopped() -> None:
    for _ in range(10 * cpu.EVERY):
        cpu.tick()


def test_an_infinite_template_is_stopped_by_its_cpu_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A macro calling itself twice: its depth is bounded, its running time is not (2 ** depth calls)."""
    monkeypatch.setattr(sandbox, "MAX_SECONDS", 0.2)
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "face.yaml.j2").write_text(
        "{% macro f(n) %}{% if n < 90 %}{{ f(n + 1) }}{{ f(n + 1) }}{% endif %}{% endmacro %}{{ f(0) }}"
    )
    report = Report()
    assert tpl.Templates([folder], tmp_path).render("face.yaml.j2", {}, "card-1/front", report) is None
    (problem,) = report.items
    assert problem.code == "T003"
    assert problem.message.endswith("template used more than 0.2 s of CPU time")


HOG = "import time\nend = time.monotonic() + 120\nwhile time.monotonic() < end: pass\n"


@pytest.mark.slow
def test_a_valid_kit_builds_under_a_cpu_hog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four busy processes on this machine make the build slower in wall time, never wrong: the budgets count
    CPU time. (They are tight here, a few times what the build needs, so a wall-clock budget would trip.)"""
    monkeypatch.setenv("CARDPRESS_CACHE", "off")
    monkeypatch.setattr(sandbox, "MAX_SECONDS", 0.5)
    monkeypatch.setattr(tpl, "MAX_TOTAL_SECONDS", 2.0)
    monkeypatch.setattr(cpu, "FACE_SECONDS", 0.5)
    monkeypatch.setattr(cpu, "KIT_SECONDS", 2.0)
    project = deck_project(tmp_path)
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(4)]
    try:
        pipeline = Pipeline(project, "tiny", missing_art="placeholder")
        pdfs = pipeline.render(["a4"])
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert pdfs is not None, pipeline.report.render()
    assert not [d for d in pipeline.report.items if d.code in ("T003", "T004")]


def test_the_user_may_scale_every_budget_for_a_profiler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDPRESS_BUDGET_SCALE", "100")
    assert (cpu.Meter().face_seconds, cpu.Meter().kit_seconds) == (500.0, 6000.0)
    for bad in ("0.5", "fast", "inf", "nan"):  # never below the budgets, never unbounded
        monkeypatch.setenv("CARDPRESS_BUDGET_SCALE", bad)
        assert cpu.Meter().face_seconds == cpu.FACE_SECONDS
