"""The speed ratios CI keeps honest: cardpress against plain ReportLab, counted in calls, never timed.

Usage: python benchmarks/ratios.py [--check | --write]

Each figure is counted in a fresh process (PYTHONHASHSEED=0) as the Python and C function calls made
while one stage runs (sys.setprofile; imports, interpreter start and the warm-up not counted). A count,
like an instruction count, does not move with what else the machine runs, and it takes seconds where
callgrind takes minutes. It is a proxy: work inside one call (a loop with no calls in it) is not seen;
docs/performance.md has the callgrind figures it stands in for.

- the scale deck (benchmarks/scale.py) at 16 and 64 unique poker cards on A4: the calls a card costs
  (the slope 16 → 64) for a first build and a rebuild, over plain ReportLab's for the same cards;
- Pocket Foundry's A4 kit: a first build and a rebuild over the plain replay of the canvas calls it made.

`--write` stores the ratios in benchmarks/ratios.json; `--check` (what CI runs) fails when any ratio is
more than 10 % above the stored one. A ratio that improved is reported, so the file can be rewritten.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from scale import forget  # what a first build makes afresh

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
STORED = HERE / "ratios.json"
TOLERANCE = 0.10  # a ratio may grow by this fraction before CI fails
SMALL, LARGE = 16, 64  # unique cards of the two scale decks: the slope between them is the cost of a card

# Run in a fresh process: import everything, then count the calls of one stage (set up by argv).
COUNTER = """
import sys
sys.path[:0] = [{root!r}, {here!r}]
kind, *args = sys.argv[1:]
calls = [0]

def count(frame, event, arg):
    if event == "call" or event == "c_call":
        calls[0] += 1

if kind == "build":
    from pathlib import Path
    from generator.pipeline import Pipeline
    from generator.layout.studio import keep_faces
    project, game = Path(args[0]), args[1]
    pipeline = Pipeline(project, game)
    sys.setprofile(count)
    pdfs = pipeline.render(["a4"])
    sys.setprofile(None)
    assert pdfs is not None, pipeline.report.render()
    keep_faces()
elif kind == "plain-scale":
    import scale
    sys.setprofile(count)
    scale.plain(*map(__import__("pathlib").Path, args))
    sys.setprofile(None)
elif kind == "plain-replay":
    import plain_reportlab
    sys.setprofile(count)
    plain_reportlab.main(*args)
    sys.setprofile(None)
print(calls[0])
"""


def count(cache: Path, *args: str) -> int:
    """Run COUNTER for one stage in a fresh process; return the calls it counted."""
    env = {**os.environ, "CARDPRESS_CACHE": str(cache), "PYTHONHASHSEED": "0"}
    script = COUNTER.format(root=str(ROOT), here=str(HERE))
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"counting {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return int(done.stdout.split()[-1])


def first_and_rebuilt(cache: Path, project: Path, game: str) -> tuple[int, int]:
    """Count a first build (no parsed card files, laid-out faces or rules findings kept; compiled templates and
    schemas warm) and a rebuild."""
    count(cache, "build", str(project), game)  # the warm-up: bytecode, compiled templates and schemas
    forget(cache)
    first = count(cache, "build", str(project), game)
    return first, count(cache, "build", str(project), game)


def measure(work: Path) -> tuple[dict[str, float], dict[str, int]]:
    """Return every ratio and the call counts they come from, counted afresh in `work`."""
    sys.path[:0] = [str(HERE), str(ROOT)]
    import scale
    from bench_build import record_calls

    cache = work / "cache"
    counts: dict[str, dict[int, int]] = {"first": {}, "rebuilt": {}, "plain": {}}
    for unique in (SMALL, LARGE):
        project = work / f"deck{unique}"
        csv = scale.make(project, unique, 1)
        counts["first"][unique], counts["rebuilt"][unique] = first_and_rebuilt(cache, project, "scale")
        counts["plain"][unique] = count(cache, "plain-scale", str(csv), str(work / f"plain{unique}.pdf"))

    def slope(name: str) -> float:
        return (counts[name][LARGE] - counts[name][SMALL]) / (LARGE - SMALL)

    os.environ["CARDPRESS_CACHE"] = str(work / "record-cache")  # the recording's faces, in a cache of its own
    calls = record_calls("a4", work)
    first, rebuilt = first_and_rebuilt(cache, ROOT, "pocket-foundry")
    replay = count(cache, "plain-replay", str(calls), str(work / "replay.pdf"))
    ratios = {
        "scale first build, per card": round(slope("first") / slope("plain"), 3),
        "scale rebuild, per card": round(slope("rebuilt") / slope("plain"), 3),
        "pocket-foundry first build": round(first / replay, 3),
        "pocket-foundry rebuild": round(rebuilt / replay, 3),
    }
    raw = {f"scale {name}, {unique} cards": n for name, by in counts.items() for unique, n in by.items()}
    raw.update(
        {"pocket-foundry first build": first, "pocket-foundry rebuild": rebuilt, "pocket-foundry replay": replay}
    )
    return ratios, raw


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="cardpress-ratios-") as tmp:
        ratios, raw = measure(Path(tmp))
    stored = json.loads(STORED.read_text(encoding="utf-8"))["ratios"] if STORED.exists() else {}
    print(f"{'':30}{'now':>8}{'stored':>8}   (calls against plain ReportLab's)")
    failed = []
    for name, now in ratios.items():
        before = stored.get(name)
        note = ""
        if before is not None and now > before * (1 + TOLERANCE):
            failed.append(name)
            note = f"  REGRESSED by {now / before - 1:.0%} (more than {TOLERANCE:.0%})"
        elif before is not None and now < before * (1 - TOLERANCE):
            note = "  improved: run with --write to store it"
        print(f"{name:30}{now:>7.2f}×{before if before is not None else float('nan'):>7.2f}×{note}")
    if "--write" in sys.argv:
        STORED.write_text(json.dumps({"ratios": ratios, "calls": raw}, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {STORED.relative_to(ROOT)}")
    elif "--check" in sys.argv and (failed or not stored):
        raise SystemExit(f"speed ratios regressed: {', '.join(failed)}" if failed else f"no {STORED.name} to check")


if __name__ == "__main__":
    main()
