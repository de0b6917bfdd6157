"""Benchmark: the edit-and-look loop against a full build.

Run with `make bench` (or `.venv/bin/python benchmarks/bench_iterate.py`). Prints medians; asserts nothing.
Measured on a copy of the project, so the checkout is never touched:

- a full `cardpress build` (whole process), and the same build warm inside one process;
- a rebuild after renaming one card, as `watch` and `serve` do it: until its proof is on disk
  (what the preview page waits for), and until both kit PDFs are rewritten;
- a single-card proof and a whole-kit proof (whole process, no proofs on disk before).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5
sys.path.insert(0, str(ROOT))


def copy_project(dest: Path) -> Path:
    """Copy the project, and make its Pocket Foundry a fan edition (another title).

    The shipped game's every printed word is proved against its rulebook, so renaming a card there is
    an error; in a fan edition the rulebook only warns, which is where designers change text.
    """
    for part in ("cards/pocket-foundry", "layouts", "fonts"):
        shutil.copytree(ROOT / part, dest / part)
    game = dest / "cards/pocket-foundry/game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8").replace("title: Pocket Foundry", "title: Pocket Foundry Plus"),
        encoding="utf-8",
    )
    return dest


def process(args: list[str], project: Path, before=None, runs: int = RUNS) -> float:
    """Return the median wall time of `cardpress ARGS` as a fresh process."""
    times = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "generator", *args, "--root", str(project)],
            cwd=project,
            capture_output=True,
            text=True,
        )
        times.append(time.perf_counter() - start)
        if done.returncode:
            raise SystemExit(f"cardpress {' '.join(args)} failed:\n{done.stderr}")
    return statistics.median(times)


def main() -> None:
    from generator.build import build
    from generator.iterate.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        project = copy_project(Path(tmp) / "project")
        out = project / "output"
        proofs = out / "pocket-foundry" / "proofs"

        full = process(["build", "pocket-foundry", "--out", str(out)], project)
        build(project, "pocket-foundry", ["a4", "letter"], None, out)  # warm this process up
        warm, warm_cpu = [], []
        for _ in range(RUNS):
            start, cpu = time.perf_counter(), time.process_time()
            build(project, "pocket-foundry", ["a4", "letter"], None, out)
            warm.append(time.perf_counter() - start)
            warm_cpu.append(time.process_time() - cpu)
        warm_build = statistics.median(warm)

        session = Session(project, "pocket-foundry", out, dpi=150)
        first = session.rebuild()
        machines = project / "cards/pocket-foundry/machines.yaml"
        original = machines.read_text(encoding="utf-8")
        edits = [("name: Feed Belt\n", "name: Feed Belt Mk II\n"), ('colour: "#c8741c"', 'colour: "#c8741d"')]
        shown, shown_cpu, pdfs, total, what = [], [], [], [], None
        for old, new in edits:  # a rules model may refuse a renamed card; a recoloured one it never does
            for i in range(RUNS):
                machines.write_text(original.replace(old, new) if i % 2 == 0 else original, encoding="utf-8")
                cpu = time.process_time()
                outcome = session.rebuild([machines], pdfs=False)  # as `watch` does: the proof first
                if not outcome.ok:
                    break
                assert sorted(outcome.proofed) == ["feed-belt-1/front", "feed-belt-2/front"], outcome.proofed
                shown.append(outcome.seconds["total"])
                shown_cpu.append(time.process_time() - cpu)
                pdfs.append(session.write_pdfs().seconds["pdfs"])  # then the kit, once edits pause
                total.append(shown[-1] + pdfs[-1])
            if len(shown) == RUNS:
                what = f"{old.strip()} → {new.strip()}"
                break
            shown, shown_cpu, pdfs, total = [], [], [], []
        machines.write_text(original, encoding="utf-8")

        in_process_card = []
        for _ in range(RUNS):
            shutil.rmtree(proofs, ignore_errors=True)
            fresh = Session(project, "pocket-foundry", out, dpi=300, pdfs=False)
            start = time.perf_counter()
            fresh.rebuild(only=["feed-belt-1"])
            in_process_card.append(time.perf_counter() - start)
        clear = lambda: shutil.rmtree(proofs, ignore_errors=True)  # noqa: E731
        card = process(["proof", "pocket-foundry", "--card", "feed-belt-1", "--out", str(out)], project, clear)
        kit = process(["proof", "pocket-foundry", "--out", str(out)], project, clear, runs=3)
        kit_again = process(["proof", "pocket-foundry", "--out", str(out)], project, runs=3)

    m = statistics.median
    print(f"Pocket Foundry, 6 players, A4 + Letter; medians of {RUNS} runs unless noted\n")
    print(f"full build, whole process                      {full:6.2f} s")
    print(f"full build, warm in one process                {warm_build:6.2f} s")
    print(f"watch/serve first build (proofs at 150 dpi, PDFs) {first.seconds['total']:6.2f} s")
    print(f"one-card edit ({what}), as watch/serve rebuild it:")
    print(
        f"  validated, re-rendered, linted, proofs on disk {m(shown):6.2f} s  "
        f"= {m(shown) / warm_build:4.0%} of a warm build, {m(shown) / full:4.0%} of a whole-process build "
        f"(CPU: {m(shown_cpu) / m(warm_cpu):4.0%} of a warm build's)"
    )
    print(f"  then both kit PDFs, once edits pause          {m(pdfs):6.2f} s")
    print(
        f"  both together                                 {m(total):6.2f} s  = {m(total) / warm_build:4.0%} of a warm build"
    )
    print(f"single-card proof, 300 dpi, warm in-process    {m(in_process_card):6.2f} s")
    print(f"single-card proof, 300 dpi, whole process      {card:6.2f} s")
    print(f"whole-kit proof, 21 faces + contact sheet, 300 dpi, whole process (median of 3)  {kit:6.2f} s")
    print(f"the same again, nothing changed                {kit_again:6.2f} s")


if __name__ == "__main__":
    main()
