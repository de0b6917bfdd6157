"""Layout lint: text shrinks to fit or is reported, the safe zone is kept, and `validate` runs it all."""

from __future__ import annotations

import shutil
from pathlib import Path

from artkit import lint
from conftest import ROOT, run_cli

TEMPLATE = "layouts/pocket-foundry/machine-front.yaml.j2"


def rename(project: Path, new: str) -> None:
    path = project / "cards/pocket-foundry/machines.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("name: Feed Belt\n", f"name: {new}\n", 1), encoding="utf-8"
    )


def override(project: Path, old: str, new: str) -> Path:
    """Give the project its own machine-front template (it overrides the built-in one), changed."""
    path = project / "cards/pocket-foundry/layouts/machine-front.yaml.j2"
    path.parent.mkdir(exist_ok=True)
    text = (ROOT / TEMPLATE).read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_a_long_title_shrinks_to_fit_without_a_word(project):
    from generator import build, pipeline
    from generator.diagnostics import Report

    rename(project, "Feed Belt Conveyor")
    report = Report()
    kit, studio, faces = build.prepare_kit(pipeline.load(project, "pocket-foundry", report), None, report)
    assert report.items == []
    prepared = faces["feed-belt-1/front"]
    (title,) = [el for el in prepared.doc.elements if el.props.get("id") == "title"]
    assert 9 <= prepared.texts[id(title)].size < 14  # shrunk from 14 pt, not below the 9 pt minimum


def test_text_that_overflows_even_at_its_minimum_size_is_a_located_error(project):
    rename(project, "Feed Belt With A Name Far Too Long For Any Card")
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert (
        f"{TEMPLATE}:19:133: error[L100] feed-belt-1/front: title: text overflows: needs 2 lines; at most 1 "
        "allowed, even shrunk to the 9 pt minimum\n"
        "    |\n"
        ' 19 | - {{ m.text(S + 13.5, S + 0.8, W - 2 * S - 15, 11.4, rich.title, font="display", size=14, min=9, '
        'colour="#ffffff", valign="middle", id="title", lines=1) }}\n'
    ) in result.stderr
    assert "error[L100] feed-belt-2/front: title:" in result.stderr  # each face is named


def test_text_taller_than_its_box_is_reported_with_the_heights(project):
    template = override(project, "W - 2 * S - 7, 17.5, rich.run", "W - 2 * S - 7, 5, rich.run")
    errors = [d for d in lint(project).errors if "packing-line-1/front" in d.message]
    (problem,) = errors
    assert problem.code == "L100" and problem.loc.file == str(template.relative_to(project))
    assert problem.message == (
        "packing-line-1/front: run: text overflows: 2 lines need 6.6 mm but the box is "
        "5.0 mm high, even shrunk to the 8 pt minimum"
    )


def test_elements_in_the_safe_zone_are_reported_unless_they_are_bleed_art(project):
    override(
        project,
        "- {{ m.text(S + 2, S + 73.7,",
        "- {{ m.rect(-3, 80, W + 6, 11.9, fill=paper, bleed=true) }}\n- {{ m.text(S + 2, S + 75.7,",
    )
    problems = [d for d in lint(project).errors if d.message.startswith("feed-belt-1/front")]
    assert [(d.code, d.message) for d in problems] == [
        (
            "L101",
            "feed-belt-1/front: reminder: text reaches within 3 mm of the trim (box 5.0,78.7 to 58.5,87.3 mm; "
            "safe zone 3,3 to 60.5,85.9 mm)",
        )
    ]


def test_validate_runs_the_layout_lint(project):
    shutil.copy(ROOT / TEMPLATE, project / "layouts/pocket-foundry/machine-front.yaml.j2")
    path = project / TEMPLATE
    path.write_text(path.read_text().replace("m.icon(machine.glyph,", 'm.icon("no-such-icon",', 1))
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1
    assert f"{TEMPLATE}:18:62: error[L012] feed-belt-1/front: glyph: unknown icon 'no-such-icon'" in result.stderr
