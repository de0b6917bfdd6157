"""cardpress as people install it: a wheel built from the checkout, installed into a fresh venv elsewhere.

The journey of a new user, from an empty folder: make a game, build it, export it, start a fan edition of a
shipped game and build that. Nothing may come from the checkout: the fonts, templates and games are the wheel's.
"""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
from pathlib import Path

import pytest
from conftest import build_wheel, make_venv
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """Return the bin/ folder of a fresh venv holding cardpress installed from a wheel of this checkout."""
    where = tmp_path_factory.mktemp("install")
    return make_venv(where / "venv", str(build_wheel(ROOT, where / "dist")))


def cardpress(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(["cardpress", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)


def test_the_wheel_carries_everything_cardpress_reads_at_run_time(installed):
    (wheel,) = installed.parent.parent.glob("dist/cardpress-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "generator/shipped/fonts/fonts.yaml",
        "generator/shipped/fonts/LICENSE-Lato.txt",
        "generator/shipped/layouts/common/macros.j2",
        "generator/shipped/cards/pocket-foundry/game.yaml",
        "generator/shipped/cards/hedgerow/critters.csv",
        "generator/source/schemas/layout.yaml",
        "generator/games/pocket_foundry/schemas/pocket-foundry-machines.yaml",
        "generator/project/skeleton/game.yaml",
        "generator/iterate/page.html",
    ):
        assert needed in names, needed
    assert not any(n.startswith(("tests/", "output/")) or "__pycache__" in n for n in names)


def test_a_new_user_makes_builds_exports_and_extends_games_in_an_empty_folder(installed, tmp_path):
    where = cardpress(installed, "--version", cwd=tmp_path)
    assert where.returncode == 0 and where.stdout.startswith("cardpress ")
    shipped = subprocess.run(
        [str(installed / "python"), "-c", "from generator import resources; print(resources.shipped())"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout.strip()
    assert Path(shipped).is_relative_to(installed.parent) and not Path(shipped).is_relative_to(ROOT)

    made = cardpress(installed, "new", "star-port", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "warning" not in (made.stdout + made.stderr).lower()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards"]  # no fonts or layouts copied in: the wheel's

    built = cardpress(installed, "build", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    kit = PdfReader(tmp_path / "output" / "star-port" / "star-port-a4.pdf")
    fonts = {
        str(font["/BaseFont"]).split("+")[-1]
        for page in kit.pages
        for font in (page["/Resources"].get("/Font") or {}).values()
    }
    assert any(f.startswith("Lato") for f in fonts), fonts  # embedded from the wheel's fonts/

    exported = cardpress(installed, "export", "star-port", "--to", "tts", cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    saved = json.loads((tmp_path / "output" / "star-port" / "tts" / "star-port.json").read_text())
    assert saved["ObjectStates"]

    edition = cardpress(installed, "new-edition", "pf-deluxe", "--from", "pocket-foundry", cwd=tmp_path)
    assert edition.returncode == 0, edition.stderr
    assert (tmp_path / "cards" / "pf-deluxe" / "game.yaml").read_text().count("extends: pocket-foundry") == 1
    built = cardpress(installed, "build", "pf-deluxe", "--paper", "a4", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert len(PdfReader(tmp_path / "output" / "pf-deluxe" / "pf-deluxe-a4.pdf").pages) > 4

    shipped_game = cardpress(installed, "validate", "micro-engine", cwd=tmp_path)  # a shipped game, by name
    assert shipped_game.returncode == 0, shipped_game.stderr
