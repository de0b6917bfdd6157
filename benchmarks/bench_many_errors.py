"""Benchmark: `cardpress validate` on a card file with thousands of problems (it must stay linear).

Puts N empty machines (`- {}`, three errors each) into a copy of Pocket Foundry and times the whole
`validate` process, its peak memory too. Run with `.venv/bin/python benchmarks/bench_many_errors.py [N ...]`;
`--code DIR` times another checkout's `generator` package instead (e.g. an export of main, to compare).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def project(dest: Path, items: int) -> Path:
    """Copy Pocket Foundry, layouts and fonts into `dest`, with `items` empty machines added."""
    shutil.copytree(ROOT / "cards" / "pocket-foundry", dest / "cards" / "pocket-foundry")
    shutil.copytree(ROOT / "layouts", dest / "layouts")
    shutil.copytree(ROOT / "fonts", dest / "fonts")
    machines = dest / "cards" / "pocket-foundry" / "machines.yaml"
    text = machines.read_text(encoding="utf-8")
    machines.write_text(text.replace("machines:\n", "machines:\n" + "  - {}\n" * items, 1), encoding="utf-8")
    return dest


def run(items: int, code: Path | None) -> tuple[float, float, int, int]:
    """Return (seconds, peak MiB, exit code, diagnostics printed) for one validate run."""
    with tempfile.TemporaryDirectory() as tmp:
        root = project(Path(tmp) / "p", items)
        env = {**os.environ, "CARDPRESS_CACHE": "off"}
        if code is not None:
            env["PYTHONPATH"] = str(code)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "generator", "validate", "pocket-foundry", "--root", str(root)],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,
        )
        seconds = time.perf_counter() - start
        peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
        return seconds, peak, done.returncode, done.stderr.count(": error[")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("items", nargs="*", type=int, default=[0, 1250, 2500, 5000])
    parser.add_argument("--code", type=Path, help="folder holding the `generator` package to time")
    args = parser.parse_args()
    print(f"{'items':>6} {'seconds':>8} {'peak MiB':>9} {'exit':>5} {'errors':>7}")
    for items in args.items:
        seconds, peak, code, errors = run(items, args.code)
        print(f"{items:6d} {seconds:8.2f} {peak:9.0f} {code:5d} {errors:7d}", flush=True)


if __name__ == "__main__":
    main()
