"""The floor: a plain ReportLab script that draws recorded pages call by call, nothing else.

Usage: python plain_reportlab.py CALLS.json OUT.pdf

CALLS.json lists every ReportLab canvas call a cardpress build made (see bench_build.py), so this
script draws exactly the same pages, with the same fonts, but without templates, YAML, validation or
layout: what any hand-written ReportLab script drawing this content would have to do at least.
"""

import json
import sys

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas


def decode(value, objects):
    """Turn a recorded argument back into a colour, a path/text object made earlier, or an image file."""
    if isinstance(value, str) and value.startswith("\x00#"):
        return HexColor(value[1:])
    if isinstance(value, str) and value.startswith("\x01"):
        return objects[value[1:]]
    if isinstance(value, str) and value.startswith("\x02"):
        return value[1:]  # an image file: drawImage takes its path
    return value


def main(calls_path: str, out_path: str) -> None:
    with open(calls_path, encoding="utf-8") as handle:
        recording = json.load(handle)
    for name, path in recording["fonts"].items():
        pdfmetrics.registerFont(TTFont(name, path))
    rl_config.useA85 = 0
    canvas = Canvas(out_path, **recording["canvas"])
    objects = {"canvas": canvas}
    for target, method, args, result in recording["calls"]:
        args = [decode(a, objects) for a in args]
        value = getattr(objects[target], method)(*args)
        if result:
            objects[result] = value  # the recording ends with canvas.save()


if __name__ == "__main__":
    main(*sys.argv[1:3])
