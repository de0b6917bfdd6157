"""A build's faces form no reference cycles: `cardpress build` turns the cycle collector off, so a face in a
cycle would live until the process ends (counted in a fresh process, so no other test's garbage is). What a
template leaves in cycles is collected when its render ends."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from generator.diagnostics import Report
from generator.layout import collector
from generator.layout.templates import Templates

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import collections, gc, json, sys
from pathlib import Path
sys.path.insert(0, "benchmarks")
from scale import make
from generator.pipeline import Pipeline
from generator.layout.studio import RenderCache

FACE_TYPES = {"Prepared", "LayoutDoc", "Element", "TextLayout", "Line", "Piece", "Mark", "Placed"}

def garbage(root, game):
    # the cycles that laying out and drawing a kit leaves, found while the pipeline is still alive
    gc.collect()
    gc.disable()
    pipeline = Pipeline(root, game, cache=RenderCache())
    assert pipeline.render(("a4",)), pipeline.report.items
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    gc.set_debug(0)
    kinds = collections.Counter(
        type(o).__name__ for o in gc.garbage if type(o).__module__.startswith("generator")
    )
    found = len(gc.garbage)
    gc.garbage.clear()
    gc.enable()
    return found, sorted(k for k in kinds if k in FACE_TYPES)

out = {}
for cards in (16, 48):
    make(Path(sys.argv[1]) / str(cards), cards, 1)
for cards in (16, 48):  # each deck's first build leaves what a process leaves once (imports, compiled templates)
    garbage(Path(sys.argv[1]) / str(cards), "scale")
    out[cards] = garbage(Path(sys.argv[1]) / str(cards), "scale")
out["pocket-foundry"] = garbage(Path("."), "pocket-foundry")
print(json.dumps(out))
"""


def test_laying_out_and_drawing_a_kit_leaves_no_face_in_a_reference_cycle(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert [found[k][1] for k in ("16", "48", "pocket-foundry")] == [[], [], []]
    # Thirty-two more cards leave fewer than one more object in a cycle each (a probe's slots, a program's
    # worth, are the most there is); when each face was in one, every card left about fifty.
    assert found["48"][0] - found["16"][0] < 32


# A stranger's template may leave cycles on purpose: each pass makes a namespace that holds itself.
CYCLES = "{% for i in range(10000) %}{% set a = namespace(n=i) %}{% set a.me = a %}{% endfor %}elements: []\n"


def test_what_a_template_leaves_in_cycles_is_collected_when_it_ends_with_the_collector_off(tmp_path):
    (tmp_path / "face.yaml.j2").write_text(CYCLES, encoding="utf-8")
    templates = Templates([tmp_path], tmp_path)
    gc.collect()
    with collector.off():
        assert not gc.isenabled()
        for n in range(5):
            assert templates.render("face.yaml.j2", {}, f"card-{n}/front", Report()) == "elements: []\n"
        left = gc.collect()  # what the five renders left uncollected: 20,000 objects each, were it not for them
    assert gc.isenabled() and left < 100
