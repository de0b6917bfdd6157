"""All or nothing on disk: a failure, a full disk or a kill leaves the previous kit whole, and says so."""

from __future__ import annotations

import errno
import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import default_sigint
from deck_helpers import deck_project
from hostile import cli, headlines

from generator.diagnostics import CardpressError
from generator.project import output


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture
def built(tmp_path):
    """A tiny deck game already built once into out/: (project, out folder, the kit's digests)."""
    project = deck_project(tmp_path)
    out = tmp_path / "out"
    code, _, err = cli("build", "tiny", "--root", str(project), "--out", str(out), "--missing-art", "placeholder")
    assert code == 0, err
    return project, out, _digests(out / "tiny")


def _rebuild(project: Path, out: Path, *more: str) -> tuple[int, str]:
    # a changed card, so a successful build would write other bytes
    cards = project / "cards" / "tiny" / "cards.csv"
    cards.write_text(cards.read_text().replace("Nap.", "Nap twice."))
    code, _, err = cli(
        "build", "tiny", "--root", str(project), "--out", str(out), "--missing-art", "placeholder", *more
    )
    return code, err


def test_a_full_disk_leaves_the_previous_kit_whole(built, monkeypatch):
    project, out, before = built
    real = os.fdopen
    opened = []

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):  # the second file finds the disk full
            if len(opened) > 1:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.handle.write(data)

        def __getattr__(self, name):
            return getattr(self.handle, name)

    def fdopen(fd, *args, **kwargs):
        opened.append(fd)
        return Full(real(fd, *args, **kwargs))

    monkeypatch.setattr(output.os, "fdopen", fdopen)
    code, err = _rebuild(project, out)
    assert code == 1
    assert headlines(err) == ["error[O001] cannot write out/tiny/tiny-letter.pdf: the disk is full"] or headlines(
        err
    ) == [f"error[O001] cannot write {out}/tiny/tiny-letter.pdf: the disk is full"]
    assert "hint: free some space, then run again; the previous files were left as they were" in err
    assert "Traceback" not in err
    assert _digests(out / "tiny") == before  # no new A4 beside the old Letter, no temporary file


def test_a_read_only_output_folder_is_a_located_error(built, monkeypatch):
    project, out, before = built

    def refused(*args, **kwargs):  # what a read-only folder answers (root would be let through)
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(output.tempfile, "mkstemp", refused)
    code, err = _rebuild(project, out)
    assert code == 1
    (line,) = headlines(err)
    assert line.endswith("tiny/tiny-a4.pdf: permission denied")
    assert "choose a folder you can write to with --out, or change its permissions" in err
    assert _digests(out / "tiny") == before


def test_out_naming_a_file_is_refused_before_building(tmp_path):
    project = deck_project(tmp_path)
    (tmp_path / "out").write_text("notes\n")
    code, _, err = cli("build", "tiny", "--root", str(project), "--out", str(tmp_path / "out"))
    assert code == 1
    assert headlines(err) == [f"error[O001] cannot write into {tmp_path / 'out'}: it is a file, not a folder"]
    assert "--out must name a folder: remove or rename that file, or choose another folder" in err
    assert (tmp_path / "out").read_text() == "notes\n"


def test_a_file_inside_out_where_a_game_folder_goes_is_named(tmp_path):
    project = deck_project(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "tiny").write_text("notes\n")
    code, _, err = cli(
        "build", "tiny", "--root", str(project), "--out", str(tmp_path / "out"), "--missing-art", "placeholder"
    )
    assert code == 1
    assert headlines(err) == [f"error[O001] cannot write into {tmp_path / 'out' / 'tiny'}: it is a file, not a folder"]


def test_a_folder_where_a_file_goes_is_found_before_any_rename(tmp_path):
    (tmp_path / "b.pdf").mkdir()
    with pytest.raises(CardpressError) as caught:
        output.write_all({tmp_path / "a.pdf": b"new a", tmp_path / "b.pdf": b"new b"}, root=tmp_path)
    assert not (tmp_path / "a.pdf").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.pdf"]
    assert caught.value.report.items[0].message.endswith("b.pdf: a folder of that name is in the way")


def test_validate_root_on_a_missing_folder_is_an_error(tmp_path):
    code, out, err = cli("validate", "--root", str(tmp_path / "nowhere"))
    assert code == 1 and out == ""
    assert headlines(err) == [f"error[G003] --root: the folder {tmp_path / 'nowhere'} does not exist"]


def test_validate_root_outside_any_project_is_an_error(tmp_path):
    code, _, err = cli("validate", "--root", str(tmp_path))
    assert code == 1
    assert headlines(err) == [f"error[G003] --root: {tmp_path} holds no cards/ folder, nor does any folder above it"]


@pytest.mark.slow  # a fresh process: signals and a real process's streams
def test_a_killed_build_leaves_the_previous_kit_and_the_next_run_sweeps_up(built):
    """SIGKILL after the first temporary file is written: old kit intact; the next build removes the leftover."""
    project, out, before = built
    cards = project / "cards" / "tiny" / "cards.csv"
    cards.write_text(cards.read_text().replace("Nap.", "Nap twice."))
    command = [sys.executable, "-m", "generator", "build", "tiny", "--root", str(project), "--out", str(out)]
    command += ["--missing-art", "placeholder"]
    env = dict(os.environ, **{output.PAUSE_ENV: "60"})
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(1200):  # up to two minutes for the build to reach its first temporary file
            if any(p.name.startswith(output.TEMP_PREFIX) for p in (out / "tiny").iterdir()):
                break
            time.sleep(0.1)
        else:
            pytest.fail("the build never wrote a temporary file")
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    leftovers = [p.name for p in (out / "tiny").iterdir() if p.name.startswith(output.TEMP_PREFIX)]
    assert len(leftovers) == 1 and leftovers[0].startswith(f"{output.TEMP_PREFIX}{proc.pid}-tiny-a4.pdf.")
    assert {k: v for k, v in _digests(out / "tiny").items() if k in before} == before
    code, _, err = cli("build", "tiny", "--root", str(project), "--out", str(out), "--missing-art", "placeholder")
    assert code == 0, err
    after = _digests(out / "tiny")
    assert sorted(after) == sorted(before)  # the killed run's temporary file is gone
    assert all(after[name] != before[name] for name in before)  # and the new set replaced the old one whole


def _start(project: Path, out: Path, *args: str, pause: str = "") -> subprocess.Popen:
    env = dict(os.environ, **({output.PAUSE_ENV: pause} if pause else {}))
    command = [sys.executable, "-m", "generator", *args, "--root", str(project), "--out", str(out)]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint
    )


def _wait_for_temp(folder: Path) -> None:
    for _ in range(1200):
        if folder.is_dir() and any(p.name.startswith(output.TEMP_PREFIX) for p in folder.iterdir()):
            return
        time.sleep(0.1)
    pytest.fail("no temporary file appeared")


@pytest.mark.slow  # a fresh process: signals and a real process's streams
def test_ctrl_c_while_writing_a_kit_removes_its_temporary_files_and_says_so(built):
    project, out, before = built
    proc = _start(project, out, "build", "tiny", "--missing-art", "placeholder", pause="60")
    _wait_for_temp(out / "tiny")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)  # promptly: not after the 60 s pause
    assert proc.returncode == 130
    assert err == "interrupted: 1 game checked (tiny); no kit written, the previous ones are whole\n"
    assert _digests(out / "tiny") == before  # and no temporary file left


@pytest.mark.slow  # a fresh process: signals and a real process's streams
def test_ctrl_c_while_proofing_says_which_games_were_finished(built):
    project, out, _ = built
    proc = _start(project, out, "proof", "tiny", "--missing-art", "placeholder", "--dpi", "40", pause="60")
    _wait_for_temp(out / "tiny" / "proofs")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == "interrupted: proofs of tiny not written; no game finished\n"
    assert not [p for p in out.rglob("*") if p.name.startswith(output.TEMP_PREFIX)]
    assert not (out / "tiny" / "proofs").exists()  # the folder made for the set is removed with it
