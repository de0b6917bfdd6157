"""Benchmark: how cardpress scales with the number of cards, against plain ReportLab and protograf.

Usage: python benchmarks/scale.py [--runs N] [--cases u16,u160,u1600,c16x100] [--programs first,rebuilt,plain,protograf]
                                 [--protograf PYTHON]

A synthetic generic deck (the `deck` ruleset: game.yaml, a CSV, two templates) of poker cards, each a
frame, a title band with the card's name, two lines of text and a cost disc, printed 3×3 on A4 with crop
marks and a shared back, in four sizes: 16, 160 and 1,600 unique cards, and 16 unique faces × 100 copies.
Three programs print each deck, every one timed as a whole process (interpreter start, imports, fonts,
drawing, writing) over several runs after a warm-up; the table gives medians of CPU seconds (user + sys:
steadier than wall time on a shared machine), peak resident memory and the PDF's size.

- cardpress: `python -m generator build scale --paper a4` on the generated project, twice over: as a first
  build (the laid-out faces forgotten before every run, so every face goes through template, parse, text
  setting and lint) and rebuilt (the faces kept on disk by the run before, as when nothing changed). Both
  keep the compiled templates and schemas, as any second run does; the cache is the benchmark's own.
- plain ReportLab: this file's `plain` command, a hand-written script drawing the same cards with the same
  fonts, shapes and page grid straight onto the canvas (no templates, validation or layout; no cover page).
- protograf: comparable cards (frame, band, title, two lines, disc; grid marks) from the same CSV, run by
  the Python given with --protograf (default .bench-venv-protograf/bin/python: its own venv, so cardpress
  never depends on it; make it with `python3 -m venv .bench-venv-protograf &&
  .bench-venv-protograf/bin/pip install protograf`). Skipped, and said so, when that Python is missing.

`python benchmarks/scale.py floor` times the Jinja render of the 1,600 fronts alone, through cardpress's
sandbox and through plain Jinja: the part of a first build that no faster drawing can remove.

Per-card cost is the slope between the 16- and 1,600-card decks: (cost at 1,600 − cost at 16) / 1,584,
so each program's fixed cost (start-up, a cover page) cancels out.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CASES = {"u16": (16, 1), "u160": (160, 1), "u1600": (1600, 1), "c16x100": (16, 100)}
FIRST, REBUILT, PLAIN = "cardpress, first build", "cardpress, rebuilt", "plain ReportLab"
SHORT = {FIRST: "first", REBUILT: "rebuilt", PLAIN: "plain", "protograf": "protograf"}
PROTOGRAF = ROOT / ".bench-venv-protograf" / "bin" / "python"

INK, PAPER, BACK = "#2a2622", "#f4eddc", "#2f3e46"
BANDS = ("#2d6a8e", "#66781a", "#35603f", "#8a5a2b", "#a83a3a", "#3f7030", "#b0601a", "#8e3b46")

GAME_YAML = f"""title: Scale
ruleset: deck
players: {{supported: [2], default: 2}}
style: {{ink: "{INK}", paper: "{PAPER}", back: "{BACK}"}}
decks:
  - id: main
    name: main deck
    size: poker
    cards: cards.csv
    template: front.yaml.j2
    back: back.yaml.j2
    required: [cost, band, line1, line2]
missing_art: placeholder
boxes: {{skip: [main]}}  # a tuck box holds at most ~190 poker cards: the benchmark prints cards only
"""

FRONT = """{% import "macros.j2" as m %}
{% set W = face.w %}{% set H = face.h %}{% set S = face.safe %}
bleed: 3
elements:
- {{ m.rect(-3, -3, W + 6, H + 6, fill=game.style.paper, bleed=true) }}
- {{ m.rect(S, S, W - 2 * S, H - 2 * S, stroke=game.style.ink, width=0.5, radius=2.5) }}
- {{ m.rect(S + 1, S + 1, W - 2 * S - 2, 12, fill=card.band, radius=1.5) }}
- {{ m.text(S + 3, S + 3, W - 2 * S - 20, 8, card.name, font="display", size=13, colour="#ffffff", valign="middle", plain=true, lines=1) }}
- {{ m.circle(W - S - 8, S + 7, 5.5, fill=game.style.paper, stroke=card.band, width=0.6) }}
- {{ m.text(W - S - 13, S + 3, 10, 8, card.cost, font="display", size=12, colour=game.style.ink, align="center", valign="middle", plain=true, lines=1) }}
- {{ m.text(S + 3, H - S - 24, W - 2 * S - 6, 6, card.line1, size=9, colour=game.style.ink, plain=true, lines=1) }}
- {{ m.text(S + 3, H - S - 16, W - 2 * S - 6, 6, card.line2, size=9, colour=game.style.ink, plain=true, lines=1) }}
"""

BACK_TEMPLATE = """{% import "macros.j2" as m %}
{% set W = face.w %}{% set H = face.h %}
bleed: 3
elements:
- {{ m.rect(-3, -3, W + 6, H + 6, fill=game.style.back, bleed=true) }}
- {{ m.rect(5, 5, W - 10, H - 10, stroke=game.style.paper, width=0.5, radius=3) }}
- {{ m.text(6, H / 2 - 5, W - 12, 10, game.title|upper, font="display", size=18, colour=game.style.paper, align="center", valign="middle", plain=true) }}
"""


def make(root: Path, unique: int, copies: int) -> Path:
    """Write a project (fonts and common layouts copied from cardpress) with one generic game `scale`."""
    game = root / "cards" / "scale"
    (game / "layouts").mkdir(parents=True)
    (root / "out").mkdir()
    for shared in ("fonts", "layouts/common"):  # copied: cardpress reads no link that leaves the project (Y006)
        shutil.copytree(ROOT / shared, root / shared)
    (game / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    (game / "layouts" / "front.yaml.j2").write_text(FRONT, encoding="utf-8")
    (game / "layouts" / "back.yaml.j2").write_text(BACK_TEMPLATE, encoding="utf-8")
    with open(game / "cards.csv", "w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["name", "copies", "cost", "band", "line1", "line2"])
        for i in range(unique):
            out.writerow(
                [
                    f"Card {i + 1:04d}",
                    copies,
                    i % 9 + 1,
                    BANDS[i % len(BANDS)],
                    f"Gain {i % 5 + 1} ore and {i % 3 + 1} coal.",
                    f"Then draw {i % 4 + 1} cards (#{i + 1}).",
                ]
            )
    (root / "protograf_deck.py").write_text(PROTOGRAF_SCRIPT.format(cards=unique * copies), encoding="utf-8")
    return game / "cards.csv"


# -- plain ReportLab: the same cards drawn by hand ------------------------------------------------------


def plain(csv_path: Path, out_path: Path) -> None:
    """Draw every card of the CSV 3×3 on A4, fronts then mirrored backs, crop marks: no cardpress at all."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    for name, file in (("Display", "RobotoCondensed-Bold.ttf"), ("Body", "Lato-Regular.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(ROOT / "fonts" / file)))
    with open(csv_path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    cards = [row for row in rows for _ in range(int(row["copies"]))]
    page_w, page_h = 210 * mm, 297 * mm
    w, h, s = 63 * mm, 88 * mm, 3 * mm
    x0, y0 = (page_w - 3 * w) / 2, (page_h - 3 * h) / 2
    canvas = Canvas(str(out_path), pagesize=(page_w, page_h), invariant=1, pageCompression=1, initialFontName="Body")
    ink, paper, back = HexColor(INK), HexColor(PAPER), HexColor(BACK)

    def marks() -> None:
        canvas.setLineWidth(0.2 * mm)
        canvas.setStrokeColor(HexColor("#000000"))
        for i in range(4):
            x, y = x0 + i * w, y0 + i * h
            canvas.line(x, y0 - 2 * mm, x, y0 - 7 * mm)
            canvas.line(x, y0 + 3 * h + 2 * mm, x, y0 + 3 * h + 7 * mm)
            canvas.line(x0 - 2 * mm, y, x0 - 7 * mm, y)
            canvas.line(x0 + 3 * w + 2 * mm, y, x0 + 3 * w + 7 * mm, y)

    def front(x: float, y: float, card: dict) -> None:
        band = HexColor(card["band"])
        top = y + h
        canvas.setFillColor(paper)
        canvas.rect(x, y, w, h, stroke=0, fill=1)
        canvas.setStrokeColor(ink)
        canvas.setLineWidth(0.5 * mm)
        canvas.roundRect(x + s, y + s, w - 2 * s, h - 2 * s, 2.5 * mm, stroke=1, fill=0)
        canvas.setFillColor(band)
        canvas.roundRect(x + s + mm, top - s - 13 * mm, w - 2 * s - 2 * mm, 12 * mm, 1.5 * mm, stroke=0, fill=1)
        canvas.setFillColor(HexColor("#ffffff"))
        canvas.setFont("Display", 13)
        canvas.drawString(x + s + 3 * mm, top - s - 9 * mm, card["name"])
        canvas.setFillColor(paper)
        canvas.setStrokeColor(band)
        canvas.setLineWidth(0.6 * mm)
        canvas.circle(x + w - s - 8 * mm, top - s - 7 * mm, 5.5 * mm, stroke=1, fill=1)
        canvas.setFillColor(ink)
        canvas.setFont("Display", 12)
        canvas.drawCentredString(x + w - s - 8 * mm, top - s - 8.5 * mm, card["cost"])
        canvas.setFont("Body", 9)
        canvas.drawString(x + s + 3 * mm, y + s + 20 * mm, card["line1"])
        canvas.drawString(x + s + 3 * mm, y + s + 12 * mm, card["line2"])

    def back_face(x: float, y: float) -> None:
        canvas.setFillColor(back)
        canvas.rect(x, y, w, h, stroke=0, fill=1)
        canvas.setStrokeColor(paper)
        canvas.setLineWidth(0.5 * mm)
        canvas.roundRect(x + 5 * mm, y + 5 * mm, w - 10 * mm, h - 10 * mm, 3 * mm, stroke=1, fill=0)
        canvas.setFillColor(paper)
        canvas.setFont("Display", 18)
        canvas.drawCentredString(x + w / 2, y + h / 2 - 2 * mm, "SCALE")

    for start in range(0, len(cards), 9):
        sheet = cards[start : start + 9]
        for side in ("fronts", "backs"):
            for i, card in enumerate(sheet):
                row, col = divmod(i, 3)
                if side == "backs":
                    col = 2 - col  # mirrored for a long-edge duplex print
                x, y = x0 + col * w, y0 + (2 - row) * h
                front(x, y, card) if side == "fronts" else back_face(x, y)
            marks()
            canvas.showPage()
    canvas.save()


# -- the floor: what a template alone costs ---------------------------------------------------------------


def floor(project: Path) -> str:
    """Time, in this process, the Jinja render of every card's front alone: through cardpress's sandbox,
    and through a plain (unsandboxed) Jinja environment on the same files. No first build can cost less
    per card than its templates; the best of 3 passes (CPU time) after a warm-up."""
    import jinja2

    from generator.diagnostics import Report
    from generator.layout import lint
    from generator.layout.templates import _quote
    from generator.pipeline import Pipeline

    pipeline = Pipeline(project, "scale")
    kit, studio = pipeline.kit(), pipeline.studio()
    assert kit is not None and studio is not None
    jobs = [
        (card.front, {**card.front.context, "face": {"w": 63.5, "h": 88.9, "safe": lint.SAFE}}) for card in kit.cards
    ]
    plain_env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(f) for f in studio.templates.folders]))
    plain_env.filters["q"] = _quote
    plain_template = plain_env.get_template(jobs[0][0].template)

    def sandboxed() -> None:
        for face, context in jobs:
            studio.templates.render(face.template, context, face.key, Report())

    def unsandboxed() -> None:
        for _, context in jobs:
            plain_template.render(context)

    lines = []
    for name, run in (("cardpress's sandbox", sandboxed), ("plain Jinja, no sandbox", unsandboxed)):
        run()
        best = min(_cpu(run) for _ in range(3))
        lines.append(f"- {name}: {best / len(jobs) * 1000:.3f} ms a card ({len(jobs)} cards)")
    return "\n".join(lines)


def _cpu(run: Any) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


# -- protograf: comparable cards --------------------------------------------------------------------------

PROTOGRAF_SCRIPT = """from protograf import *
Create(filename="out/protograf.pdf", paper="A4", margin=0.8, units="cm")
Data(filename="cards/scale/cards.csv")
Deck(cards={cards}, card_size="poker", copy="copies", grid_marks=True, rounding=0.25, fill="{paper}", stroke="{ink}")
Card("*",
     rectangle(x=0.4, y=0.4, width=5.55, height=1.2, fill=T("{{{{ band }}}}"), stroke=None, rounding=0.15),
     text(text=T("{{{{ name }}}}"), x=2.6, y=0.8, font_size=13, stroke="white"),
     circle(cx=5.25, cy=1.0, radius=0.55, fill="{paper}", stroke=T("{{{{ band }}}}"), stroke_width=1.7),
     text(text=T("{{{{ cost }}}}"), x=5.25, y=0.85, font_size=12, stroke="{ink}"),
     text(text=T("{{{{ line1 }}}}"), x=3.15, y=6.2, font_size=9, stroke="{ink}"),
     text(text=T("{{{{ line2 }}}}"), x=3.15, y=7.0, font_size=9, stroke="{ink}"),
)
Save()
""".replace("{paper}", PAPER).replace("{ink}", INK)


# -- measuring ---------------------------------------------------------------------------------------------


@dataclass
class Figure:
    """Medians over the counted runs of one program on one deck."""

    cpu: float  # user + system seconds
    wall: float
    peak_mib: float  # peak resident memory of the process
    pdf_bytes: int


def forget(cache: Path) -> None:
    """Forget what a first build makes afresh (the parsed card files, the laid-out faces, the rules check's
    findings, the set rules pages); keep the compiled templates and schemas, as any second run has them."""
    for kind in ("sources", "faces", "rules", "rulebooks"):
        shutil.rmtree(cache / kind, ignore_errors=True)


def _env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as a user's shell runs it
    env["CARDPRESS_CACHE"] = str(cache)  # the benchmark's own, never the user's
    return env


def run_once(command: list[str], cwd: Path, cache: Path) -> tuple[float, float, float]:
    """Run a command to the end; return (cpu seconds, wall seconds, peak MiB) from the kernel's accounting."""
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=_env(cache), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({child.returncode}):\n{errors[-2000:]}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def instructions(command: list[str], cwd: Path, cache: Path) -> int:
    """Run a command once under Valgrind's callgrind; return the instructions it executed. Unlike time,
    the count does not move with what else the machine is running."""
    env = _env(cache)
    env["CARDPRESS_BUDGET_SCALE"] = "200"  # valgrind spends ~50× the CPU time: a first build stays in budget
    env["PYTHONHASHSEED"] = "0"  # string hashes decide set and dict layouts: fixed, every run takes one path
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or not found:
        raise SystemExit(f"valgrind {' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def instruction_table(counts: dict[str, dict[str, int]]) -> str:
    """Return the instruction counts and each program's per-card slope against plain ReportLab's."""
    lines = ["| deck | program | instructions (millions) |", "| --- | --- | ---: |"]
    for program, by_case in counts.items():
        lines += [f"| {case} | {program} | {n / 1e6:,.0f} |" for case, n in by_case.items()]
    plain_rl = counts.get(PLAIN, {})
    theirs = (plain_rl["u1600"] - plain_rl["u16"]) / 1584 if {"u16", "u1600"} <= plain_rl.keys() else None
    lines.append("")
    for program, by_case in counts.items():
        if program != PLAIN and theirs and {"u16", "u1600"} <= by_case.keys():
            ours = (by_case["u1600"] - by_case["u16"]) / 1584
            lines.append(
                f"- {program}, per card (slope 16 → 1,600): {ours / 1e3:,.0f} thousand instructions against plain "
                f"ReportLab's {theirs / 1e3:,.0f} thousand: **{ours / theirs:.2f}×**"
            )
    return "\n".join(lines)


@dataclass(frozen=True)
class Program:
    """A command that prints a deck, the PDF it writes, and whether each run starts with no laid-out faces."""

    command: list[str]
    pdf: Path
    first_build: bool = False


def measure(program: Program, cwd: Path, runs: int, cache: Path) -> Figure:
    """Warm up once (bytecode, template and schema caches, as any second build), then count `runs` runs.

    A first build forgets the parsed card files and the laid-out faces before every run, so each one parses
    every file and lays out every face; a rebuild keeps them, as `cardpress build` does when nothing changed
    since the last build.
    """
    samples = []
    for run in range(runs + 1):
        if program.first_build:
            forget(cache)
        sample = run_once(program.command, cwd, cache)
        if run:
            samples.append(sample)
    cpu, wall, peak = (statistics.median(s[i] for s in samples) for i in range(3))
    return Figure(cpu, wall, peak, program.pdf.stat().st_size)


def programs(project: Path, protograf: Path | None) -> dict[str, Program]:
    """Return each program, by name, for one generated project."""
    out = project / "out"
    build = [sys.executable, "-m", "generator", "build", "scale", "--paper", "a4", "--root", str(project)]
    found = {
        FIRST: Program(build + ["--out", str(out)], out / "scale" / "scale-a4.pdf", first_build=True),
        REBUILT: Program(build + ["--out", str(out)], out / "scale" / "scale-a4.pdf"),
        PLAIN: Program(
            [sys.executable, __file__, "plain", str(project / "cards/scale/cards.csv"), str(out / "plain.pdf")],
            out / "plain.pdf",
        ),
    }
    if protograf is not None:
        found["protograf"] = Program([str(protograf), "protograf_deck.py"], out / "protograf.pdf")
    return found


def table(results: dict[str, dict[str, Figure]], cases: list[str]) -> str:
    """Return the Markdown table of figures and the ratios the issue asks for."""
    names = {"u16": "16 unique", "u160": "160 unique", "u1600": "1,600 unique", "c16x100": "16 × 100 copies"}
    lines = [
        "| deck | program | CPU s | wall s | peak MiB | PDF KiB |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for case in cases:
        for program, figures in results.items():
            f = figures.get(case)
            if f is not None:
                lines.append(
                    f"| {names[case]} | {program} | {f.cpu:.2f} | {f.wall:.2f} | {f.peak_mib:.0f} | "
                    f"{f.pdf_bytes / 1024:,.0f} |"
                )
    lines.append("")
    plain_rl, pg = results.get(PLAIN, {}), results.get("protograf", {})

    def slope(figures: dict[str, Figure]) -> float | None:
        if "u16" in figures and "u1600" in figures:
            return (figures["u1600"].cpu - figures["u16"].cpu) / 1584
        return None

    notes = []
    theirs = slope(plain_rl)
    for name in (FIRST, REBUILT):
        cp, ours = results.get(name, {}), slope(results.get(name, {}))
        if ours is not None and theirs:
            whole = cp["u1600"].cpu / plain_rl["u1600"].cpu
            notes.append(
                f"- {name}, per card at 1,600 unique (slope 16 → 1,600): {ours * 1000:.2f} ms against plain "
                f"ReportLab's {theirs * 1000:.2f} ms: **{ours / theirs:.2f}×** (whole run: {whole:.2f}×)"
            )
        if "u1600" in cp and "u1600" in pg:
            pg_slope = slope(pg)
            per_card = f" (per card: {pg_slope / ours:.1f}×)" if pg_slope and ours else ""
            notes.append(
                f"- 1,600 unique cards, whole run: protograf takes **{pg['u1600'].cpu / cp['u1600'].cpu:.1f}×** "
                f"the CPU time of cardpress's {name.split(', ')[1]}{per_card}"
            )
    cp = results.get(FIRST, {})
    if "c16x100" in cp and "u16" in cp:
        extra_bytes = cp["c16x100"].pdf_bytes - cp["u16"].pdf_bytes
        unique_bytes = cp["u1600"].pdf_bytes - cp["u16"].pdf_bytes if "u1600" in cp else None
        note = f"- 1,584 copies add {extra_bytes / 1024:,.0f} KiB ({extra_bytes / 1584:.0f} bytes a copy)"
        if unique_bytes:
            note += f"; 1,584 unique cards add {unique_bytes / 1024:,.0f} KiB ({unique_bytes / 1584:.0f} bytes a card)"
        note += (
            f"; peak memory {cp['c16x100'].peak_mib:.0f} MiB with copies vs {cp['u16'].peak_mib:.0f} MiB for the "
            f"16 faces alone"
        )
        if "u1600" in cp:
            note += f" and {cp['u1600'].peak_mib:.0f} MiB for 1,600 unique"
        notes.append(note)
    return "\n".join(lines + notes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="counted runs of each program on each deck")
    parser.add_argument("--cases", default=",".join(CASES), help="decks to print: " + ", ".join(CASES))
    parser.add_argument("--protograf", type=Path, default=PROTOGRAF, help="a Python with protograf installed")
    parser.add_argument("--programs", help="only these programs, comma-separated: first, rebuilt, plain, protograf")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions under valgrind (one run each, after a warm-up) for the first build, the "
        "rebuild and plain ReportLab instead of timing: steady on a busy machine",
    )
    parser.add_argument("--keep", type=Path, help="build the decks here and keep them (default: a temporary folder)")
    args = parser.parse_args()
    cases = args.cases.split(",")
    protograf = args.protograf if args.protograf.exists() else None
    if protograf is None:
        print(f"protograf: {args.protograf} not found; skipped (see this script's docstring)", file=sys.stderr)
    work = args.keep or Path(tempfile.mkdtemp(prefix="cardpress-scale-"))
    results: dict[str, dict[str, Figure]] = {}
    counts: dict[str, dict[str, int]] = {}
    try:
        for case in cases:
            unique, copies = CASES[case]
            project = work / case
            if project.exists():
                shutil.rmtree(project)
            make(project, unique, copies)
            for program, how in programs(project, protograf).items():
                if args.programs and SHORT[program] not in args.programs.split(","):
                    continue
                if args.instructions:
                    if program in (FIRST, REBUILT, PLAIN):
                        run_once(how.command, project, work / "cache")  # the warm-up: caches filled, faces kept
                        if how.first_build:
                            forget(work / "cache")
                        counts.setdefault(program, {})[case] = instructions(how.command, project, work / "cache")
                        print(f"{case:8} {program:16} {counts[program][case]:,} instructions", file=sys.stderr)
                    continue
                figure = measure(how, project, args.runs, work / "cache")
                results.setdefault(program, {})[case] = figure
                print(f"{case:8} {program:16} cpu {figure.cpu:7.2f}s  peak {figure.peak_mib:6.0f} MiB", file=sys.stderr)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    if args.instructions:
        print("Instructions of one whole-process run under callgrind after a warm-up, A4.\n")
        print(instruction_table(counts))
        return
    print(f"Median of {args.runs} whole-process runs after a warm-up, A4.\n")
    print(table(results, cases))


if __name__ == "__main__":
    if sys.argv[1:2] == ["plain"]:
        plain(Path(sys.argv[2]), Path(sys.argv[3]))
    elif sys.argv[1:2] == ["floor"]:
        with tempfile.TemporaryDirectory(prefix="cardpress-floor-") as tmp:
            make(Path(tmp), 1600, 1)
            sys.path.insert(0, str(ROOT))
            print("Jinja render of the 1,600-card deck's fronts, alone:\n" + floor(Path(tmp)))
    else:
        main()
