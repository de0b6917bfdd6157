"""Layout lint: text shrinks to fit or is reported, the safe zone is kept, and `validate` runs it all."""

from __future__ import annotations

import re
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
    from generator.pipeline import Pipeline

    rename(project, "Feed Belt Conveyor")
    pipeline = Pipeline(project, "pocket-foundry")
    faces = pipeline.layout()
    assert [d for d in pipeline.report.items if d.code.startswith("L")] == []  # the rules layer minds the name
    prepared = faces["feed-belt-1/front"]
    (title,) = [el for el in prepared.doc.elements if el.props.get("id") == "title"]
    assert 9 <= prepared.texts[id(title)].size < 14  # shrunk from 14 pt, not below the 9 pt minimum


def test_text_that_overflows_even_at_its_minimum_size_is_a_located_error(project):
    rename(project, "Feed Belt With A Name Far Too Long For Any Card")
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert (
        f"{TEMPLATE}:19:133: error[L100] feed-belt/front: title: text overflows: needs 2 lines; at most 1 "
        "allowed, even shrunk to the 9 pt minimum (2 copies)\n"
        "    |\n"
        ' 19 | - {{ m.text(S + 13.5, S + 0.8, W - 2 * S - 15, 11.4, rich.title, font="display", size=14, min=9, '
        'colour="#ffffff", valign="middle", id="title", lines=1) }}\n'
    ) in result.stderr
    assert result.stderr.count("error[L100]") == 1  # both copies of the card are one problem, said once


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
    # one bad icon on all 16 market cards is one problem, with its count and the first places
    assert (
        f"{TEMPLATE}:18:62: error[L012] feed-belt-1/front: glyph: unknown icon 'no-such-icon' (and 15 more "
        "places: feed-belt-2/front, small-press-1/front, small-press-2/front, …)\n"
    ) in result.stderr
    assert result.stderr.count("error[L012]") == 1


def test_colliding_text_is_a_located_error_on_every_face_it_breaks(project):
    override(
        project,
        "m.text(S + 3, S + 44, W - 2 * S - 6, 8, rich.build_cost",
        "m.text(S + 3, S + 58, W - 2 * S - 6, 8, rich.build_cost",
    )
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    where = "cards/pocket-foundry/layouts/machine-front.yaml.j2:24:123"
    assert (
        f"{where}: error[L110] feed-belt/front: 'build-cost' and 'run' overlap by 35.1 × 2.5 mm at (14.2, 64.2) "
        "(2 copies)\n"
        "    |\n"
        " 24 | - {{ m.text(S + 3, S + 58, W - 2 * S - 6, 8, rich.build_cost, size=9, min=7, colour=ink, "
        'align="center", valign="middle", id="build-cost", role="rules") }}\n'
        "    |" + " " * 123 + "^\n"
        "  = hint: move or shrink one of them; a text meant to sit on an icon or image lists its id in `over`\n"
    ) in result.stderr
    assert (
        f"{where}: error[L110] feed-belt-1/front: 'build-cost' is painted over by rect at elements[10] "
        "by 35.1 × 3.5 mm at (14.2, 63.3) (and 13 more places: feed-belt-2/front, small-press-1/front, small-press-2/front, "
        "…)\n"
    ) in result.stderr
    # both problems on each of the 16 market cards: 32, said as 5 problems with their counts
    notes = re.findall(r"error\[L110\].*\((and )?(\d+) (?:copies|more places?)", result.stderr)
    assert len(notes) == 5 and sum(int(n) + (1 if more else 0) for more, n in notes) == 32


def test_the_shipped_games_make_small_text_an_error_and_other_games_a_warning(project):
    override(
        project,
        'size=7, colour=ink|lighten(0.25), align="center", valign="middle", leading=1.15, id="reminder"',
        'size=6.5, colour=ink|lighten(0.25), align="center", valign="middle", leading=1.15, id="reminder"',
    )
    message = "feed-belt-1/front: 'reminder' is rules text set at 6.5 pt; the minimum is 7 pt"
    report = lint(project)
    (found,) = [d for d in report.items if d.message == message]
    assert (found.severity, found.code, found.loc.line) == ("error", "L111", 29)
    game = project / "cards/pocket-foundry/game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("severity: error", "severity: warning"), encoding="utf-8")
    report = lint(project)
    assert report.ok() and [d.severity for d in report.items if d.message == message] == ["warning"]


def test_lint_thresholds_in_game_yaml_are_checked(project):
    game = project / "cards/pocket-foundry/game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("severity: error", "severity: fatal"), encoding="utf-8")
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1
    assert "cards/pocket-foundry/game.yaml:" in result.stderr and "lint.severity" in result.stderr
