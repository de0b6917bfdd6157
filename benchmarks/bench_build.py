"""Benchmark: the full `cardpress build` against a plain ReportLab script drawing the same pages.

Run with `make bench` (or `.venv/bin/python benchmarks/bench_build.py`). Both sides are timed as whole
processes (interpreter start, imports, fonts, drawing, writing), median of several runs. The plain
side replays every canvas call that cardpress made, recorded here, so the content is identical.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5


def record_calls(paper: str, out: Path) -> Path:
    """Build one paper's kit in-process while logging every canvas call; return the JSON log."""
    sys.path.insert(0, str(ROOT))
    from reportlab.lib.colors import Color
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen import canvas as rl_canvas

    from generator.pipeline import Pipeline

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

    kitpdf.Canvas = patched
    Pipeline(ROOT, "pocket-foundry").render([paper])
    kitpdf.Canvas = original
    fonts = {
        name: pdfmetrics.getFont(name).face.filename
        for name in pdfmetrics.getRegisteredFontNames()
        if name.startswith("cp-")
    }
    settings["pagesize"] = list(settings["pagesize"])
    path = out / f"calls-{paper}.json"
    path.write_text(json.dumps({"fonts": fonts, "canvas": settings, "calls": calls}), encoding="utf-8")
    return path


def timed(command: list[str]) -> float:
    """Return the median wall time of a command over RUNS runs."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        if done.returncode:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        cardpress = [sys.executable, "-m", "generator", "build", "pocket-foundry", "--out", str(out / "kit")]
        print(f"Pocket Foundry kit, 6 players; median of {RUNS} whole-process runs")
        rows = []
        for paper in ("a4", "letter"):
            calls = record_calls(paper, out)
            count = len(json.loads(calls.read_text())["calls"])
            ours = timed(cardpress + ["--paper", paper])
            plain = timed(
                [
                    sys.executable,
                    str(ROOT / "benchmarks" / "plain_reportlab.py"),
                    str(calls),
                    str(out / f"plain-{paper}.pdf"),
                ]
            )
            rows.append((paper, count, ours, plain))
        both = timed(cardpress)
        print(f"{'paper':8}{'canvas calls':>14}{'cardpress':>12}{'plain RL':>11}{'ratio':>8}")
        for paper, count, ours, plain in rows:
            print(f"{paper:8}{count:>14}{ours:>11.2f}s{plain:>10.2f}s{ours / plain:>7.2f}×")
        plain_both = sum(plain for *_, plain in rows)
        print(
            f"{'both':8}{'':>14}{both:>11.2f}s{plain_both:>10.2f}s{both / plain_both:>7.2f}×"
            "  (cardpress builds both papers in one process; plain is two runs)"
        )


if __name__ == "__main__":
    main()
