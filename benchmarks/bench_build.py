"""Benchmark: the full `cardpress build` against a plain ReportLab script drawing the same pages.

Run with `make bench` (or `.venv/bin/python benchmarks/bench_build.py`). Every side is timed as a whole
process (interpreter start, imports, fonts, drawing, writing) in CPU seconds, median of several runs taken
in turn; `--instructions` counts one run of a first build, of a rebuild and of the replay under
Valgrind's callgrind instead. The plain side replays every canvas call that cardpress made, recorded here, so the content is
identical. cardpress is timed twice: as a first build (no laid-out faces on disk) and rebuilt (every
face kept on disk by the run before, as when nothing changed).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from scale import forget, instructions, run_once  # the same whole-process measurements as the scale benchmark

ROOT = Path(__file__).resolve().parent.parent
RUNS = 7


def record_calls(paper: str, out: Path) -> Path:
    """Build one paper's kit in-process while logging every canvas call; return the JSON log."""
    sys.path.insert(0, str(ROOT))
    from reportlab.lib.colors import Color
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen import canvas as rl_canvas

    from generator.pipeline import Pipeline
    from generator.render.painters import PdfPainter

    calls: list = []
    counter = iter(range(10**9))
    images: dict[int, str] = {}

    def image_file(reader: ImageReader) -> str:
        """Write an image the build drew to a file the plain script can draw: JPEG bytes as they are."""
        if id(reader) not in images:
            path = out / f"image{len(images)}"
            if reader.fp is not None:  # JPEG: ReportLab kept the file to pass it through
                reader.fp.seek(0)
                path = path.with_suffix(".jpg")
                path.write_bytes(reader.fp.read())
            else:
                path = path.with_suffix(".png")
                reader._image.save(path)
            images[id(reader)] = str(path)
        return images[id(reader)]

    def encode(value):
        if isinstance(value, Proxy):
            return "\x01" + value._name
        if isinstance(value, ImageReader):
            return "\x02" + image_file(value)
        if isinstance(value, Color):
            return "\x00" + value.hexval().replace("0x", "#")
        if isinstance(value, (list, tuple)):
            return [encode(v) for v in value]
        return value

    class Proxy:
        def __init__(self, obj, name):
            self._obj, self._name = obj, name

        # A drawing patched onto the canvas (the rules pages' inline icons) goes onto the real one, where
        # platypus's text objects call it; what it draws there is not logged, so the replay is a little short.
        def __setattr__(self, attr, value):
            if attr.startswith("_"):
                object.__setattr__(self, attr, value)
            else:
                setattr(self._obj, attr, value)

        def __delattr__(self, attr):
            delattr(self._obj, attr)

        def __getattr__(self, attr):
            value = getattr(self._obj, attr)
            if not callable(value):
                return value

            def call(*args, **kwargs):
                result = value(*[a._obj if isinstance(a, Proxy) else a for a in args], **kwargs)
                label = None
                if attr in ("beginPath", "beginText"):
                    label = f"o{next(counter)}"
                    result = Proxy(result, label)
                calls.append([self._name, attr, encode(list(args)), label])
                return result

            return call

    original = rl_canvas.Canvas
    settings: dict = {}

    class Recording(original):
        def __init__(self, filename, **kwargs):
            super().__init__(filename, **kwargs)
            settings.update({k: v for k, v in kwargs.items() if k != "cropMarks"})

    def patched(filename, **kwargs):
        return Proxy(Recording(filename, **kwargs), "canvas")

    import generator.render.kitpdf as kitpdf
    from generator.render.painters import CanvasPainter

    # The build's painter writes the content stream itself; CanvasPainter makes the same bytes through
    # the canvas methods, so every drawing call is recorded for the replay.
    kitpdf.Canvas, kitpdf.PdfPainter = patched, CanvasPainter
    Pipeline(ROOT, "pocket-foundry").render([paper])
    kitpdf.Canvas, kitpdf.PdfPainter = original, PdfPainter
    fonts = {
        name: pdfmetrics.getFont(name).face.filename
        for name in pdfmetrics.getRegisteredFontNames()
        if name.startswith("cp-")
    }
    settings["pagesize"] = list(settings["pagesize"])
    path = out / f"calls-{paper}.json"
    path.write_text(json.dumps({"fonts": fonts, "canvas": settings, "calls": calls}), encoding="utf-8")
    return path


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        cache = out / "cache"  # the benchmark's own, never the user's
        os.environ["CARDPRESS_CACHE"] = str(cache)  # for the build recorded in this process too

        def cpu_seconds(command: list[str]) -> float:
            return run_once(command, ROOT, cache)[0]

        calls = record_calls("a4", out)
        count = len(json.loads(calls.read_text())["calls"])
        build = [
            sys.executable,
            "-m",
            "generator",
            "build",
            "pocket-foundry",
            "--paper",
            "a4",
            "--out",
            str(out / "kit"),
        ]
        plain = [sys.executable, str(ROOT / "benchmarks" / "plain_reportlab.py"), str(calls), str(out / "plain.pdf")]
        cpu_seconds(build)  # warm-up: bytecode, compiled templates and schemas, as any second run has them
        cpu_seconds(plain)
        if "--instructions" in sys.argv:  # steady on a busy machine
            rebuilt_count = instructions(build, ROOT, cache)  # the warm-up kept every face: a true rebuild
            forget(cache)
            first_count = instructions(build, ROOT, cache)
            theirs = instructions(plain, ROOT, cache)
            print(f"Pocket Foundry A4 kit, instructions of one run under callgrind ({count} canvas calls):")
            for name, ours in (("first build", first_count), ("rebuilt", rebuilt_count), ("plain replay", theirs)):
                print(f"{name:14}{ours / 1e6:>10,.0f} million  **{ours / theirs:.2f}×**")
            return
        first, rebuilt, floor = [], [], []
        for _ in range(RUNS):  # in turn, so a drift in the machine's speed touches all three alike
            forget(out / "cache")
            first.append(cpu_seconds(build))
            rebuilt.append(cpu_seconds(build))
            floor.append(cpu_seconds(plain))
        print(f"Pocket Foundry A4 kit, 6 players, {count} canvas calls; median CPU seconds of {RUNS} runs in turn")
        print(f"{'':28}{'CPU s':>8}{'ratio':>8}  (ratio: median of the run-by-run ratios to the plain replay)")
        for name, times in (
            ("cardpress, first build", first),
            ("cardpress, rebuilt", rebuilt),
            ("plain replay", floor),
        ):
            ratio = statistics.median(t / f for t, f in zip(times, floor))
            print(f"{name:28}{statistics.median(times):>8.2f}{ratio:>7.2f}×")


if __name__ == "__main__":
    main()
