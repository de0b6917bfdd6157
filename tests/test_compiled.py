"""What Python compiles kept between runs (generator.project.compiled): dataclass methods and regular expressions
compiled once, read back as the same code, and a torn file only means compiling again (fresh processes, each
with its own cache)."""

from __future__ import annotations

import importlib.util
import json
import marshal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = """
import json, sys
from dataclasses import dataclass, field
from generator.project import compiled
compiled.install()

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
print(json.dumps({"repr": repr(a), "equal": a == b, "hashed": hash(a) == hash(b), "compiled": len(compiled._methods.new),
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
    return cache / "compiled" / f"methods-{sys.implementation.cache_tag}-{importlib.util.MAGIC_NUMBER.hex()}.marshal"


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


PATTERNS = """
import json, re, sys
if sys.argv[1] == "kept":
    from generator.project import compiled
    compiled.install()
text = "Feed Belt: gain 2 ⚙ (twice), ticket-stamp-1/front — Réserve 10 cogs; 0x1F feed-belt"
found = {}
for pattern, flags in [
    (r"(?P<word>[A-Za-z]+)-(?P<n>\\d+)/(?P<side>front|back)", 0),
    (r"(?i)feed\\s+belt", 0),
    (r"(?<=gain )\\d+(?= ⚙)", 0),
    (r"(\\w)\\1", 0),
    (r"réserve", re.IGNORECASE),
    (r" \\d+  # a number\\n  \\s cogs", re.VERBOSE),
    (r"[^\\x00-\\x7f]+", 0),
    (r"\\b0x[0-9A-F]+\\b", re.ASCII),
    (r"^Feed.*$", re.M | re.S),
    (r"(a)|(b)?c{2,5}?", 0),
]:
    p = re.compile(pattern, flags)
    found[pattern] = [p.flags, p.groups, dict(p.groupindex), p.findall(text), p.sub("#", text), p.pattern]
b = re.compile(rb"(?P<hex>0x[0-9A-F]+)")
found["bytes"] = [b.flags, b.groups, dict(b.groupindex), [m.decode() for m in b.findall(text.encode())]]
new = len(compiled._patterns.new) if sys.argv[1] == "kept" else -1
print(json.dumps({"found": found, "compiled": new}, ensure_ascii=False))
"""


def patterns(cache: Path, mode: str = "kept") -> dict[str, object]:
    env = {"CARDPRESS_CACHE": str(cache), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PATTERNS, mode], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def program_file(cache: Path) -> Path:
    (found,) = (cache / "compiled").glob("patterns-*.marshal")
    return found


def test_a_pattern_read_back_matches_as_one_compiled_afresh(tmp_path):
    plain = patterns(tmp_path, "plain")["found"]
    first = patterns(tmp_path)
    second = patterns(tmp_path)
    assert first["compiled"] >= 11  # these, and those of the cache's imports
    assert second["compiled"] == 0
    assert first["found"] == second["found"] == plain
    assert plain["(?P<word>[A-Za-z]+)-(?P<n>\\d+)/(?P<side>front|back)"][3] == [["stamp", "1", "front"]]
    assert plain["(?<=gain )\\d+(?= ⚙)"][3] == ["2"]


def test_a_torn_or_forged_program_file_only_means_compiling_again(tmp_path, monkeypatch):
    from generator.project import cache

    patterns(tmp_path)
    path = program_file(tmp_path)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    assert patterns(tmp_path)["compiled"] >= 11
    assert path.read_bytes() == whole  # the same patterns, the same programs: the same bytes
    kept = marshal.loads(whole[4:])
    forged = {key: (flags, [999, 999], groups, names, index) for key, (flags, _, groups, names, index) in kept.items()}
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    cache.write(path, marshal.dumps(forged))  # sealed, and shaped as programs, but not ones the matcher takes
    again = patterns(tmp_path)
    assert again["found"] == patterns(tmp_path, "plain")["found"]
