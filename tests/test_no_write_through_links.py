"""No write through a link: every file cardpress writes goes through one guarded writer (project/guard.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_cli
from deck_helpers import deck_project

from generator.diagnostics import CardpressError
from generator.project import cache, output

FRONT = """\
{% import "macros.j2" as m %}
bleed: 3
elements:
- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#ffffff", bleed=true) }}
- {{ m.image(card.art.src, 6, 6, face.w - 12, 30, id="art") }}
- {{ m.text(6, 40, face.w - 12, 10, card.name, plain=true, id="name") }}
"""
CSV = "name,copies,text\nAnt,1,a\nBee,1,b\n"


def art_project(tmp_path: Path) -> Path:
    """A deck whose two cards (ant, bee) each show art/<id>.png, both missing."""
    return deck_project(tmp_path, csv=CSV, files={"layouts/front.yaml.j2": FRONT})


def everything(folder: Path) -> list[str]:
    """Every path under `folder`, links included (not followed), relative and sorted."""
    found = []
    for base, dirs, files in os.walk(folder):
        found += [os.path.relpath(os.path.join(base, n), folder) for n in dirs + files]
    return sorted(found)


def make_missing(project: Path):
    return run_cli("art", "tiny", "--make-missing", "--root", str(project), cwd=project)


def test_stand_ins_are_written_when_nothing_is_linked(tmp_path):
    project = art_project(tmp_path)
    result = make_missing(project)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["wrote cards/tiny/art/ant.png", "wrote cards/tiny/art/bee.png"]


@pytest.mark.parametrize("absolute", [True, False], ids=["absolute", "relative"])
def test_a_dangling_link_to_outside_is_refused_and_nothing_is_created(tmp_path, absolute):
    project = art_project(tmp_path)
    outside = tmp_path / "outside"
    (project / "cards/tiny/art").mkdir()
    target = outside / "deep" / "ant.png"
    link = project / "cards/tiny/art/ant.png"
    link.symlink_to(target if absolute else os.path.relpath(target, link.parent))
    before = everything(tmp_path)
    result = make_missing(project)
    assert result.returncode == 1
    assert not outside.exists()
    assert everything(tmp_path) == before  # not even bee.png: the set is refused whole
    headline = next(line for line in result.stderr.splitlines() if "error[" in line)
    assert headline == (
        "cards/tiny/art/ant.png:1:1: error[O002] cannot write cards/tiny/art/ant.png: "
        f"it is a symbolic link (to {os.readlink(link)})"
    )
    assert "cardpress never writes through a link" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_dangling_link_into_a_sibling_game_is_refused(tmp_path):
    project = art_project(tmp_path)
    sibling = project / "cards" / "other"
    sibling.mkdir()
    (project / "cards/tiny/art").mkdir()
    (project / "cards/tiny/art/ant.png").symlink_to("../../other/art/ant.png")
    result = make_missing(project)
    assert result.returncode == 1
    assert everything(sibling) == []
    assert "error[O002] cannot write cards/tiny/art/ant.png: it is a symbolic link (to ../../other/art/ant.png)" in (
        result.stderr
    )


def test_an_art_folder_that_is_a_link_out_is_refused(tmp_path):
    project = art_project(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (project / "cards/tiny/art").symlink_to(outside)
    result = make_missing(project)
    assert result.returncode == 1
    assert everything(outside) == []
    assert (
        "cards/tiny/art:1:1: error[O002] cannot write cards/tiny/art/ant.png: "
        f"cards/tiny/art is a symbolic link (to {outside})"
    ) in result.stderr


def test_a_kit_is_not_written_through_a_link_in_the_output_folder(tmp_path):
    project = deck_project(tmp_path)
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (out / "tiny").symlink_to(outside)
    result = run_cli(
        "build",
        "tiny",
        "--paper",
        "a4",
        "--root",
        str(project),
        "--out",
        str(out),
        "--missing-art",
        "placeholder",
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert everything(outside) == []
    assert (
        f"out/tiny:1:1: error[O002] cannot write out/tiny/tiny-a4.pdf: out/tiny is a symbolic link (to {outside})"
        in (result.stderr)
    )


def test_exports_are_not_written_through_a_link(tmp_path):
    project = deck_project(tmp_path)
    out, outside = tmp_path / "out", tmp_path / "outside"
    (out / "tiny").mkdir(parents=True)
    outside.mkdir()
    (out / "tiny" / "cards").symlink_to(outside)
    result = run_cli(
        "export",
        "tiny",
        "--to",
        "cards",
        "--root",
        str(project),
        "--out",
        str(out),
        "--missing-art",
        "placeholder",
        cwd=tmp_path,
    )
    assert result.returncode == 1, result.stdout
    assert everything(outside) == []
    assert "error[O002]" in result.stderr


def test_the_writer_refuses_a_path_outside_its_root_and_makes_no_folder(tmp_path):
    with pytest.raises(CardpressError) as caught:
        output.write_all({tmp_path / "a" / "b" / "x.txt": b"x"}, root=tmp_path / "elsewhere")
    assert caught.value.report.items[0].code == "O002"
    assert "it lies outside" in caught.value.report.items[0].message
    assert everything(tmp_path) == []


def test_folders_made_for_a_set_that_fails_are_removed(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "c.txt").mkdir()  # a folder where a file goes: the set fails after a/ was made
    with pytest.raises(CardpressError):
        output.write_all({tmp_path / "a" / "deep" / "x.txt": b"x", tmp_path / "b" / "c.txt": b"c"}, root=tmp_path)
    assert everything(tmp_path) == ["b", "b/c.txt"]


def test_a_scaffold_is_not_written_through_a_linked_cards_folder(tmp_path):
    project = deck_project(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / "cards" / "fresh").symlink_to(outside / "fresh")  # dangling: `new` sees no folder there
    result = run_cli("new", "fresh", "--root", str(project), cwd=project)
    assert result.returncode == 1
    assert everything(outside) == []
    assert "error[O002]" in result.stderr


def test_a_cache_entry_is_not_written_through_a_link(tmp_path, monkeypatch):
    base, outside = tmp_path / "cache", tmp_path / "outside"
    (base / "kind").mkdir(parents=True)
    outside.mkdir()
    (base / "kind" / "entry").symlink_to(outside / "entry")
    monkeypatch.setenv("CARDPRESS_CACHE", str(base))
    cache.write(base / "kind" / "entry", b"data")
    assert everything(outside) == []
    assert cache.read(base / "kind" / "entry") is None
    (base / "linked").symlink_to(outside)
    assert cache.folder("linked") is None


def test_a_cache_entry_reads_back_only_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    path = tmp_path / "entry"
    cache.write(path, b"data")
    assert cache.read(path) == b"data"
    path.write_bytes(path.read_bytes()[:-1] + b"X")  # one byte altered
    assert cache.read(path) is None
