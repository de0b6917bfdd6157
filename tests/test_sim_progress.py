"""Progress on a terminal (rate, time left), silence elsewhere, and Ctrl-C: a clean stop with no worker left."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import default_sigint
from pf_common import ROOT, loaded
from rich.console import Console

from generator.games.pocket_foundry.commands import simulation
from generator.sim import progress
from generator.sim.executors import LocalProcesses
from generator.sim.runner import Match, run_matches
from generator.sim.tasks import Interrupted


def _run(console: Console) -> str:
    plugin = simulation(loaded())
    with progress.reporting("games", console=console):
        run_matches(plugin, [Match("main", 4, ("random",) * 4, 40, 1)], jobs=1, label="simulate pocket-foundry")
    return console.file.getvalue()


def test_a_terminal_sees_games_done_the_rate_and_the_bar():
    out = _run(Console(file=io.StringIO(), force_terminal=True, width=120, color_system="standard"))
    last = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.rsplit("\r", 1)[-1])
    assert re.search(r"simulate pocket-foundry .*━+ 40/40 games \d[\d,]* games/s 0:00:\d\d", last), last
    assert "\x1b[" in out  # a live display: it redraws in place


def test_no_color_keeps_the_bar_and_drops_the_colours(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = _run(Console(file=io.StringIO(), force_terminal=True, width=120))
    assert "40/40 games" in out
    assert not re.search(r"\x1b\[(3\d|9\d|38;)", out)  # no foreground colour codes


def test_progress_is_silent_when_stderr_is_not_a_terminal():
    assert _run(Console(file=io.StringIO())) == ""
    assert progress.current().done == 0  # outside a command: a silent display that counts nothing shown


def test_time_left_reads_naturally():
    assert progress._duration(44.6) == "45 s"
    assert progress._duration(200) == "3 min 20 s"
    assert progress._duration(7500) == "2 h 05 min"


def _group(pgid: int) -> list[int]:
    """Return the processes (zombies included) whose process group is `pgid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                found.append(int(entry.name))
    return found


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def interrupt_with_workers(cmd: list[str]) -> tuple[subprocess.Popen, str, str]:
    """Run `cmd` and press Ctrl-C once its two workers run; return the finished process and its output."""
    # Its own process group, as a shell gives a foreground job: Ctrl-C reaches the parent and its workers.
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    try:
        deadline = time.monotonic() + 120
        while len(_children(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)  # wait until both workers exist (not a timing assertion: a bound on waiting)
        assert len(_children(proc.pid)) >= 2, "the workers never started"
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc, stdout, stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.slow  # a fresh process: signals and a real process's streams
def test_ctrl_c_stops_every_worker_says_what_finished_and_writes_nothing(tmp_path):
    out = tmp_path / "report"
    cmd = [
        sys.executable,
        "-m",
        "generator",
        "simulate",
        "pocket-foundry",
        "--bots",
        "planner",
        "--games",
        "200000",
        "--count-games",
        "0",
    ]
    cmd += ["--skill-games", "0", "--jobs", "2", "--out", str(out)]
    proc, stdout, stderr = interrupt_with_workers(cmd)
    assert proc.returncode == 130, stderr
    assert re.fullmatch(r"interrupted: \d+ of 200000 games finished; no report written\n", stderr), stderr
    assert "Traceback" not in stderr and stdout == ""
    assert not out.exists()
    assert _group(proc.pid) == []  # no worker left running, and no zombie


def test_an_interrupted_local_run_reports_the_games_finished(monkeypatch):
    plugin = simulation(loaded())
    calls = []

    def run(self, fn, shared, tasks, on_result, poll):
        on_result(0, fn(shared, tasks[0]))
        calls.append(len(tasks))
        raise Interrupted(1, len(tasks))

    monkeypatch.setattr(LocalProcesses, "run", run)
    with pytest.raises(Interrupted) as info:
        run_matches(plugin, [Match("main", 2, ("random",) * 2, 64, 1)], jobs=2)
    assert (info.value.done, info.value.total) == (2, 64)  # one chunk of 2 games (64 / (2 workers × 16))
    assert calls == [32]
