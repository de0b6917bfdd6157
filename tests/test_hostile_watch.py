"""`watch` and `serve` keep running through every user mistake: each is reported, the last good output stays."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

from generator.iterate.session import Session
from generator.project import output

GAME = Path("cards") / "pocket-foundry"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _folder(project):
    path = project / GAME / "components.yaml"
    path.unlink()
    path.mkdir()


def _loop(project):
    path = project / GAME / "components.yaml"
    path.unlink()
    path.symlink_to("components.yaml")


def _deep(project):
    (project / GAME / "components.yaml").write_text("components: " + "[" * 500 + "]" * 500 + "\n")


def _ruleset(project):
    _edit(project / GAME / "game.yaml", "ruleset: pocket-foundry", "ruleset: [pocket-foundry]")


def _nul(project):
    _edit(project / GAME / "machines.yaml", "  - id: feed-belt\n", '  - id: feed-belt\n    art: "art/a\\0b.png"\n')


def _long(project):
    _edit(project / GAME / "machines.yaml", "  - id: feed-belt\n", f"  - id: feed-belt\n    art: art/{'a' * 280}.png\n")


def _latin1(project):
    (project / "layouts" / "pocket-foundry" / "market-back.yaml.j2").write_bytes(b"bleed: 3\n# \xff\n")


def _proofs_blocked(project):
    shutil.rmtree(project / "output" / "pocket-foundry" / "proofs")
    (project / "output" / "pocket-foundry" / "proofs").write_text("a file\n")


MISTAKES = [
    (_folder, "Y005", "cards/pocket-foundry/components.yaml"),
    (_loop, "Y007", "cards/pocket-foundry/components.yaml"),
    (_deep, "Y003", "cards/pocket-foundry/components.yaml"),
    (_ruleset, "S001", "cards/pocket-foundry/game.yaml"),
    (_nul, "Y007", "cards/pocket-foundry/machines.yaml"),
    (_long, "S004", "cards/pocket-foundry/machines.yaml"),
    (_latin1, "T002", "layouts/pocket-foundry/market-back.yaml.j2"),
]


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A project built once by a session (proofs at 30 dpi and the A4 kit): (project, its output)."""
    from conftest import copy_project

    project = copy_project(tmp_path_factory.mktemp("watch") / "project")
    session = Session(project, "pocket-foundry", project / "output", dpi=30, papers=["a4"])
    assert session.rebuild().ok
    return project, _snapshot(project / "output")


@pytest.fixture
def broken(good, tmp_path):
    """A fresh copy of the built project, for one mistake."""
    project = tmp_path / "project"
    shutil.copytree(good[0], project, symlinks=True)
    return project, good[1]


@pytest.mark.parametrize("make, code, file", MISTAKES, ids=[m[0].__name__.strip("_") for m in MISTAKES])
def test_a_rebuild_reports_each_mistake_and_keeps_the_last_good_output(broken, make, code, file):
    project, before = broken
    session = Session(project, "pocket-foundry", project / "output", dpi=30, papers=["a4"])
    make(project)
    outcome = session.rebuild([project / GAME])
    assert not outcome.ok
    assert [(d.code, d.loc.file if d.loc else "") for d in outcome.report.errors] == [(code, file)]
    state = session.snapshot()  # what the preview page shows: the problem, beside its face or above them all
    shown = state["diagnostics"] + [d for face in state["faces"] for d in face["diagnostics"]]
    assert state["ok"] is False and [d["code"] for d in shown] == [code]
    assert _snapshot(project / "output") == before


def test_an_output_folder_blocked_by_a_file_is_reported_and_survived(broken):
    project, _ = broken
    _proofs_blocked(project)
    session = Session(project, "pocket-foundry", project / "output", dpi=30, papers=["a4"])
    outcome = session.rebuild()
    assert not outcome.ok
    (problem,) = outcome.report.errors
    assert problem.code == "O001" and problem.message.endswith("proofs: it is a file, not a folder")
    (project / "output" / "pocket-foundry" / "proofs").unlink()
    assert session.rebuild().ok  # fixed: the next rebuild goes through


def test_a_full_disk_while_proofing_keeps_every_previous_proof(broken, monkeypatch):
    project, before = broken
    session = Session(project, "pocket-foundry", project / "output", dpi=31, papers=["a4"])  # every proof is due
    written = []
    real = output.os.fsync

    def fsync(fd):
        written.append(fd)
        if len(written) == 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)

    monkeypatch.setattr(output.os, "fsync", fsync)
    outcome = session.rebuild()
    assert not outcome.ok
    (problem,) = outcome.report.errors
    assert problem.code == "O001" and problem.message.endswith(".png: the disk is full")
    assert _snapshot(project / "output") == before  # no proof of the new set, no temporary file
    monkeypatch.setattr(output.os, "fsync", real)
    assert session.rebuild().ok


def test_watch_never_follows_a_link_out_of_the_game_folder(tmp_path):
    from conftest import copy_project

    from generator.iterate import watch

    project = copy_project(tmp_path / "project")
    big = tmp_path / "system"
    for i in range(50):
        (big / f"d{i}" / "sub").mkdir(parents=True)
    (project / GAME / "linked").symlink_to(big)
    (project / GAME / "loop").symlink_to("loop")
    folders = watch.folders(project)
    assert all(big not in f.parents and "linked" not in f.parts for f in folders)
    assert sorted(str(f.relative_to(project)) for f in folders if "cards" in f.parts) == [
        "cards",
        "cards/pocket-foundry",
        "cards/pocket-foundry/art",
    ]


def test_the_watcher_watches_each_folder_alone(tmp_path, monkeypatch):
    """Non-recursive watches on the real folders found: the watcher itself never walks into a link."""
    import threading

    import watchfiles
    from conftest import copy_project

    from generator.iterate import watch

    project = copy_project(tmp_path / "project")
    calls = []

    def fake(*paths, **options):
        calls.append((paths, options))
        return iter(())

    monkeypatch.setattr(watchfiles, "watch", fake)
    watch.run([], project, lambda s, o: None, threading.Event())
    ((paths, options),) = calls
    assert options["recursive"] is False and list(paths) == watch.folders(project)


def test_a_loop_of_links_appearing_mid_run_is_no_crash(broken):
    project, _ = broken
    session = Session(project, "pocket-foundry", project / "output", dpi=30, papers=["a4"])
    loop = project / GAME / "art" / "spin.png"
    loop.symlink_to("spin.png")
    assert session.affected_by([loop]) is True
    session.rebuild([loop])  # the loop is not a file anything reads: nothing to say
