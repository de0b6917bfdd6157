"""A template mistake in a generic deck is said once, at the game's own template line and column, with a count."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import ROOT, copy_project, run_cli

FRONT = "cards/tiny/layouts/card-front.yaml.j2"
BACK = "cards/tiny/layouts/card-back.yaml.j2"


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory) -> Path:
    """A project holding `cardpress new tiny` (five cards, a front and a shared back template)."""
    project = copy_project(tmp_path_factory.mktemp("scaffold") / "project", games=())
    (project / "cards").mkdir()
    assert run_cli("new", "tiny", cwd=project).returncode == 0
    return project


@pytest.fixture
def tiny(scaffold: Path, tmp_path: Path) -> Path:
    """A private copy of the scaffolded project that a test may break."""
    return Path(shutil.copytree(scaffold, tmp_path / "project"))


def edit(project: Path, name: str, old: str, new: str) -> None:
    path = project / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def validate(project: Path) -> list[str]:
    """Validate the broken game; return stderr's lines, which must end by counting one error in one file."""
    result = run_cli("validate", "tiny", cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[-1] == "1 error, 0 warnings in 1 file"  # said once, for all five cards
    return lines


def test_a_misspelled_macro_keyword_on_five_cards_is_one_error_at_the_keyword(tiny):
    edit(tiny, FRONT, "stroke=c, width=0.5, radius=2.5", "stroke=c, widht=0.5, radius=2.5")
    lines = validate(tiny)
    assert lines[0] == (
        f"{FRONT}:12:67: error[T003] template error while rendering spark/front: macro 'rect' takes no keyword "
        "argument 'widht' (and 4 more places: lantern/front, bridge/front, tower/front, …)"
    )


def test_an_undefined_value_passed_to_a_shared_macro_is_blamed_where_it_was_passed(tiny):
    edit(tiny, BACK, "m.rect(-3, -3, W + 6, H + 6, fill=bg,", "m.rect(-3, -3, W + 6, H + 6, fill=game.style.bak,")
    lines = validate(tiny)
    assert lines[:5] == [
        f"{BACK}:7:51: error[T003] template error while rendering main-back: 'dict object' has no attribute 'bak'",
        "   |",
        " 7 | - {{ m.rect(-3, -3, W + 6, H + 6, fill=game.style.bak, bleed=true) }}",
        "   |                                                   ^",
        "  = hint: it failed inside layouts/common/macros.j2:10, a shared template this line calls",
    ]


def test_an_unknown_key_written_in_the_template_is_one_error_at_its_template_line(tiny):
    edit(tiny, FRONT, "# Name band", "- {rect: {x: 1, y: 1, w: 2, h: 2, colr: red}}\n# Name band")
    lines = validate(tiny)
    assert lines[:4] == [
        f"{FRONT}:13:35: error[L003] elements[2].rect.colr: spark/front: unknown key 'colr' "
        "(and 4 more places: lantern/front, bridge/front, tower/front, …)",
        "    |",
        " 13 | - {rect: {x: 1, y: 1, w: 2, h: 2, colr: red}}",
        "    |                                   ^",
    ]


def test_a_problem_in_what_an_expression_wrote_is_at_its_line_with_the_rendered_position(tiny):
    edit(tiny, FRONT, 'band / 2 - 1.2, fill="#fffdf8")', "band / 2 - 1.2, fill=card.name)")
    lines = validate(tiny)
    assert lines[:2] == [
        f"{FRONT}:15:1: error[L004] elements[3].ellipse.fill: spark/front: colours are written #rrggbb "
        "(at line 7, column 90 of its rendered layout) (and 4 more places: lantern/front, bridge/front, tower/front, "
        "…)",
        "    |",
    ]


def test_a_missing_include_is_one_error_at_the_include(tiny):
    edit(tiny, FRONT, "# Name band, with the cost in a disc at its left.", '{% include "parts.j2" %}')
    lines = validate(tiny)
    assert lines[:5] == [
        f"{FRONT}:13:13: error[T001] no layout template 'parts.j2' (needed for spark/front) "
        "(and 4 more places: lantern/front, bridge/front, tower/front, …)",
        "    |",
        ' 13 | {% include "parts.j2" %}',
        "    |             ^",
        f"  = hint: looked in cards/tiny/layouts, layouts/common, {ROOT / 'layouts' / 'common'}",
    ]
