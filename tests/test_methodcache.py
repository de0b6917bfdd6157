"""The dataclass methods kept between runs (generator.project.methodcache): compiled once, read back as the same
code, and a torn file only means compiling again (fresh processes, each with its own cache)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = """
import json, sys
from dataclasses import dataclass, field
from generator.project import methodcache
methodcache.install()

@dataclass(frozen=True)
class Spool:
    colour: str
    turns: int = 3
    tags: tuple = field(default=())

a, b = Spool("teal"), Spool("teal", 3)
try:
    a.turns = 4
    frozen = False
except AttributeError:  # dataclasses.FrozenInstanceError
    frozen = True
print(json.dumps({"repr": repr(a), "equal": a == b, "hashed": hash(a) == hash(b), "compiled": len(methodcache._new),
                  "frozen": frozen}))
"""


def run(cache: Path) -> dict[str, object]:
    env = {"CARDPRESS_CACHE": str(cache), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def kept(cache: Path) -> Path:
    return cache / "methods" / f"{sys.implementation.cache_tag}-{importlib.util.MAGIC_NUMBER.hex()}.marshal"


def test_a_second_run_compiles_no_method_and_the_class_behaves_the_same(tmp_path):
    first = run(tmp_path)
    assert first["compiled"] > 5  # the class's own methods and those of the cache's imports
    assert kept(tmp_path).is_file()
    written = kept(tmp_path).read_bytes()
    second = run(tmp_path)
    assert second["compiled"] == 0
    assert {k: v for k, v in second.items() if k != "compiled"} == {
        "repr": "Spool(colour='teal', turns=3, tags=())",
        "equal": True,
        "hashed": True,
        "frozen": True,
    }
    assert {k: v for k, v in first.items() if k != "compiled"} == {k: v for k, v in second.items() if k != "compiled"}
    assert kept(tmp_path).read_bytes() == written  # nothing new: not written again


def test_a_torn_file_is_compiled_past_and_written_whole_again(tmp_path):
    run(tmp_path)
    whole = kept(tmp_path).read_bytes()
    kept(tmp_path).write_bytes(whole[: len(whole) // 2])
    assert run(tmp_path)["compiled"] > 5
    assert kept(tmp_path).read_bytes() == whole  # the same classes, the same code: the same bytes
    assert run(tmp_path)["compiled"] == 0


def test_with_the_cache_off_every_method_is_compiled_and_nothing_is_written(tmp_path):
    assert run(Path("off"))["compiled"] > 5
    assert not (ROOT / "off").exists()
