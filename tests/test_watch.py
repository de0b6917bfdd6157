"""Watch mode: a rebuild redoes only the faces whose inputs changed, and never replaces good output with broken."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from artkit import image_bytes, pixels

from generator.iterate import watch
from generator.iterate.session import Session

MACHINES = "cards/pocket-foundry/machines.yaml"


def edit(project: Path, name: str, old: str, new: str) -> None:
    path = project / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.suffix in (".png", ".pdf")}


def started(project: Path, pdfs: bool = False) -> Session:
    s = Session(project, "pocket-foundry", project / "output", dpi=60, papers=["a4"], pdfs=pdfs)
    first = s.rebuild()
    assert first.ok and len(first.rendered) >= 21 and len(first.proofed) == 21, first.report.render()
    return s


@pytest.fixture
def session(project):
    return started(project)


def test_a_card_edit_re_renders_only_that_card(project):
    session = started(project, pdfs=True)
    before = snapshot(project / "output")
    edit(project, MACHINES, 'colour: "#c8741c"', 'colour: "#1c74c8"')
    outcome = session.rebuild([project / MACHINES])
    assert outcome.ok
    assert outcome.rendered == ["feed-belt-1/front", "feed-belt-2/front"]
    assert outcome.proofed == ["feed-belt-1/front", "feed-belt-2/front"]
    after = snapshot(project / "output")
    changed = sorted(name for name in after if after[name] != before.get(name))
    assert changed == ["feed-belt-1.front.png", "feed-belt-2.front.png", "pocket-foundry-a4.pdf"]


def test_a_template_edit_re_renders_every_face_it_draws(session, project):
    edit(
        project,
        "layouts/pocket-foundry/machine-front.yaml.j2",
        "size=7, colour=ink|lighten(0.25)",
        "size=7, colour=ink|lighten(0.2)",
    )
    outcome = session.rebuild([project / "layouts/pocket-foundry/machine-front.yaml.j2"])
    assert outcome.ok and len(outcome.rendered) == 16 and "market-back" not in outcome.rendered


def test_an_art_edit_re_renders_the_faces_that_show_it(session, project):
    (project / "cards/pocket-foundry/art/sort-scoop.png").write_bytes(image_bytes(pixels(320)))
    outcome = session.rebuild([project / "cards/pocket-foundry/art/sort-scoop.png"])
    assert outcome.ok and outcome.rendered == ["sort-scoop-1/front", "sort-scoop-2/front"]


def test_broken_input_keeps_the_last_good_output_and_says_why(session, project):
    before = snapshot(project / "output")
    edit(project, MACHINES, "copies: 2", "copies: two")
    broken = session.rebuild([project / MACHINES])
    assert not broken.ok and [d.code for d in broken.report.errors] == ["S001"]
    assert snapshot(project / "output") == before
    state = session.snapshot()
    assert state["ok"] is False and state["diagnostics"][0]["code"] == "S001"
    assert len(state["faces"]) == 21  # the last good proofs stay on show
    edit(project, MACHINES, "copies: two", "copies: 2")
    assert session.rebuild([project / MACHINES]).ok and session.snapshot()["ok"] is True


def test_a_layout_error_is_shown_beside_its_face(session, project):
    edit(project, MACHINES, "name: Feed Belt\n", "name: Feed Belt With A Name Far Too Long For Any Card\n")
    outcome = session.rebuild([project / MACHINES])
    assert not outcome.ok
    faces = {f["key"]: f for f in session.snapshot()["faces"]}
    assert [d["code"] for d in faces["feed-belt-1/front"]["diagnostics"]] == ["L100"]
    assert faces["small-press-1/front"]["diagnostics"] == []


def test_changes_elsewhere_do_not_rebuild(session, project):
    other = project / "cards/other-game/game.yaml"
    assert not session.affected_by([other])
    assert session.affected_by([project / "layouts/common/macros.j2"])
    assert watch.rebuild_once([session], [other], lambda s, o: None) == []
    inside = Session(project, "pocket-foundry", project / "cards/pocket-foundry/output")
    assert not inside.affected_by([project / "cards/pocket-foundry/output/pocket-foundry/proofs/mat.png"])


def watching(session: Session, project: Path, seen: list, stop: threading.Event, **options) -> threading.Thread:
    """Start the watcher on `session` in a thread; return once its first build (made listening) is done."""
    thread = threading.Thread(
        target=watch.run, args=([session], project, lambda s, o: seen.append(o), stop), kwargs=options
    )
    thread.start()
    until(lambda: len(seen) >= 1)
    return thread


def until(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)


def test_the_watcher_sees_an_edit_then_writes_the_pdfs_once_edits_pause(project):
    session = started(project, pdfs=True)
    pdf = project / "output/pocket-foundry/pocket-foundry-a4.pdf"
    before = pdf.read_bytes()
    seen: list = []
    stop = threading.Event()
    thread = watching(session, project, seen, stop, quiet_ms=300)
    try:
        edit(project, MACHINES, 'colour: "#2f6690"', 'colour: "#902f66"')
        until(lambda: len(seen) >= 3)
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
    first, rebuilt, written = seen[:3]
    assert first.ok and first.rendered == []  # the project was built already: the watcher's build renders nothing
    assert rebuilt.ok and rebuilt.rendered == ["small-press-1/front", "small-press-2/front"]
    assert "pdfs" not in rebuilt.seconds  # the proof did not wait for the kit
    assert written.ok and written.written == [pdf] and pdf.read_bytes() != before
    assert watch.describe(session, written).endswith(
        f"pocket-foundry: kit PDFs written in {written.seconds['pdfs']:.2f} s"
    )


def test_an_edit_made_the_moment_the_first_build_ends_is_not_missed(project):
    """The watcher listens before the first build starts, so no edit falls between "up to date" and listening."""
    session = Session(project, "pocket-foundry", project / "output", dpi=60, papers=["a4"])
    seen: list = []
    stop = threading.Event()

    def listener(s, outcome):
        seen.append(outcome)
        if len(seen) == 1:  # inside the first build's report, before the loop goes back to listening
            edit(project, MACHINES, 'colour: "#2f6690"', 'colour: "#90662f"')

    thread = threading.Thread(target=watch.run, args=([session], project, listener, stop))
    thread.start()
    try:
        until(lambda: len(seen) >= 2)
    finally:
        stop.set()
        thread.join(10)
    assert len(seen[0].rendered) >= 21
    assert seen[1].rendered == ["small-press-1/front", "small-press-2/front"]


def test_superseded_renders_are_forgotten(session, project):
    size = len(session.cache)
    previous = "#c8741c"
    for colour in ("#111111", "#222222", "#333333"):
        edit(project, MACHINES, f'colour: "{previous}"', f'colour: "{colour}"')
        previous = colour
        assert session.rebuild([project / MACHINES]).ok
    assert len(session.cache) <= size + 2  # the two faces of the last edit, not every version of them


def test_watch_says_when_a_broken_input_is_fixed(session, project, capsys):
    from generator.cli.iterate import Reporter

    say = Reporter()
    edit(project, MACHINES, "copies: 2", "copies: two")
    say(session, session.rebuild([project / MACHINES]))
    broken = capsys.readouterr()
    assert broken.err.startswith(
        "cards/pocket-foundry/machines.yaml:8:13: error[S001] machines[0].copies: expected a whole number, "
        "got string 'two'\n"
    )
    assert broken.err.splitlines()[-1].endswith(
        "pocket-foundry: build failed (1 error, 0 warnings in 1 file); output keeps the last good proofs and PDFs"
    )
    assert "fixed" not in broken.out + broken.err
    edit(project, MACHINES, "copies: two", "copies: 2")
    say(session, session.rebuild([project / MACHINES]))
    mended = capsys.readouterr()
    lines = mended.out.splitlines()
    assert lines[0] == (
        "pocket-foundry: fixed: cards/pocket-foundry/machines.yaml:8:13 error[S001] machines[0].copies, kit rebuilt"
    )
    assert lines[1].endswith("(0 errors, 0 warnings)") and mended.err == ""
    say(session, session.rebuild([project / MACHINES]))  # fixed once is said once
    assert "fixed" not in capsys.readouterr().out


def test_watch_prints_a_warning_once_and_counts_it_after(session, project, capsys):
    from generator.cli.iterate import Reporter

    say = Reporter()
    art = project / "cards" / "pocket-foundry" / "art" / "small-press.png"
    art.unlink()
    say(session, session.rebuild([art]))
    first = capsys.readouterr().err
    assert first.count("warning[A001]") == 1 and "as before" not in first
    edit(project, MACHINES, 'colour: "#c8741c"', 'colour: "#1c74c8"')
    say(session, session.rebuild([project / MACHINES]))
    second = capsys.readouterr()
    assert "warning[A001]" not in second.err
    assert second.err.splitlines()[0] == "pocket-foundry: 1 warning as before, not repeated"
    assert second.out.splitlines()[-1].endswith("(0 errors, 1 warning in 1 file)")  # the summary still counts it
    art.write_bytes((art.parent / "twin-press.png").read_bytes())  # fixed, then broken again: said again
    say(session, session.rebuild([art]))
    art.unlink()
    say(session, session.rebuild([art]))
    assert capsys.readouterr().err.count("warning[A001]") == 1
