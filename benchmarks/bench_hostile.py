"""Attack census: run every hostile input and careless mistake of issue 13 through the real `cardpress` CLI.

Each attack gets a fresh copy of Pocket Foundry, is run as a separate process (so its peak memory is
its own), and is judged "answered well" when it exits with the expected code, prints no traceback and
names the file involved. Prints one line per attack, then the worst time and peak memory.
Run with `.venv/bin/python benchmarks/bench_hostile.py [-k SUBSTRING]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = Path("cards") / "pocket-foundry"


@dataclass
class Attack:
    """One hostile input: how to make it, the command to run, the exit code and text expected."""

    name: str
    make: Callable[[Path], list[str]]  # breaks the project; returns the cardpress arguments
    code: int = 1
    says: str = ""  # text the output must contain (a path, a code)
    unprivileged: bool = False  # run as nobody (root may write anywhere)


def _copy(dest: Path) -> Path:
    shutil.copytree(ROOT / "cards" / "pocket-foundry", dest / GAME)
    shutil.copytree(ROOT / "layouts", dest / "layouts")
    shutil.copytree(ROOT / "fonts", dest / "fonts")
    return dest


def _edit(p: Path, name: str, old: str, new: str) -> None:
    path = p / GAME / name
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


def _v(p: Path) -> list[str]:
    return ["validate", "pocket-foundry", "--root", str(p)]


def _b(p: Path) -> list[str]:
    return ["build", "pocket-foundry", "--root", str(p), "--out", str(p / "out")]


def _folder(p: Path) -> list[str]:
    (p / GAME / "components.yaml").unlink()
    (p / GAME / "components.yaml").mkdir()
    return _v(p)


def _loop(p: Path) -> list[str]:
    (p / GAME / "components.yaml").unlink()
    (p / GAME / "components.yaml").symlink_to("components.yaml")
    return _v(p)


def _deep(p: Path) -> list[str]:
    (p / GAME / "components.yaml").write_text("components: " + "[" * 500 + "]" * 500 + "\n")
    return _v(p)


def _nul_art(p: Path) -> list[str]:
    _edit(p, "machines.yaml", "  - id: feed-belt\n", '  - id: feed-belt\n    art: "art/a\\0b.png"\n')
    return _v(p)


def _long_art(p: Path) -> list[str]:
    _edit(p, "machines.yaml", "  - id: feed-belt\n", f"  - id: feed-belt\n    art: art/{'a' * 280}.png\n")
    return _v(p)


def _ruleset_list(p: Path) -> list[str]:
    _edit(p, "game.yaml", "ruleset: pocket-foundry", "ruleset: [pocket-foundry]")
    return _v(p)


def _template_latin1(p: Path) -> list[str]:
    (p / "layouts" / "pocket-foundry" / "market-back.yaml.j2").write_bytes(b"bleed: 3\nelements: []\n# \xff\xfe\n")
    return _b(p)


def _font_truncated(p: Path) -> list[str]:
    path = p / "fonts" / "Lato-Black.ttf"
    path.write_bytes(path.read_bytes()[:1000])
    return _b(p)


def _font_text(p: Path) -> list[str]:
    (p / "fonts" / "Lato-Black.ttf").write_bytes(b"not a font")
    return _b(p)


def _out_is_file(p: Path) -> list[str]:
    (p / "out").write_text("I am a file\n")
    return _b(p)


def _out_readonly(p: Path) -> list[str]:
    (p / "out" / "pocket-foundry").mkdir(parents=True)
    (p / "out" / "pocket-foundry").chmod(stat.S_IRUSR | stat.S_IXUSR)
    return _b(p)


def _root_missing(p: Path) -> list[str]:
    return ["validate", "--root", str(p / "nowhere")]


def _fifo(p: Path) -> list[str]:
    (p / GAME / "components.yaml").unlink()
    os.mkfifo(p / GAME / "components.yaml")
    return _v(p)


def _dev_zero(p: Path) -> list[str]:
    (p / GAME / "components.yaml").unlink()
    (p / GAME / "components.yaml").symlink_to("/dev/zero")
    return _v(p)


def _passwd(p: Path) -> list[str]:
    (p / GAME / "components.yaml").unlink()
    (p / GAME / "components.yaml").symlink_to("/etc/passwd")
    return _v(p)


def _alias_bomb(p: Path) -> list[str]:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 12)]
    (p / GAME / "components.yaml").write_text("\n".join(lines) + "\n")
    return _v(p)


def _many_errors(p: Path) -> list[str]:
    _edit(p, "machines.yaml", "machines:\n", "machines:\n" + "  - {}\n" * 5000)
    return _v(p)


def _template(body: str) -> Callable[[Path], list[str]]:
    def make(p: Path) -> list[str]:
        (p / "layouts" / "pocket-foundry" / "market-back.yaml.j2").write_text(body)
        return _b(p)

    return make


ATTACKS = [
    Attack("card file is a folder", _folder, says="components.yaml"),
    Attack("card file is a symlink loop", _loop, says="components.yaml"),
    Attack("card file is a FIFO", _fifo, says="components.yaml"),
    Attack("card file links to /dev/zero", _dev_zero, says="components.yaml"),
    Attack("card file links to /etc/passwd", _passwd, says="Y006"),
    Attack("YAML nested 500 deep", _deep, says="components.yaml"),
    Attack("YAML alias bomb", _alias_bomb, says="components.yaml"),
    Attack("5000 empty machines", _many_errors, says="machines.yaml"),
    Attack("ruleset given as a list", _ruleset_list, says="game.yaml"),
    Attack("NUL in an art path", _nul_art, says="machines.yaml"),
    Attack("280-character art file name", _long_art, says="machines.yaml"),
    Attack("template not UTF-8", _template_latin1, says="market-back.yaml.j2"),
    Attack("truncated font (build)", _font_truncated, says="Lato-Black.ttf"),
    Attack("font that is text (build)", _font_text, says="Lato-Black.ttf"),
    Attack("--out names a file", _out_is_file, says="out"),
    Attack("read-only output folder", _out_readonly, says="pocket-foundry", unprivileged=True),
    Attack("validate --root on a missing folder", _root_missing, says="nowhere"),
    Attack("template string repetition", _template("{{ 'x' * 10**9 }}"), says="market-back.yaml.j2"),
    Attack(
        "template nested string loops",
        _template("{% for a in 'x'*9999 %}{% for b in 'y'*9999 %}{% endfor %}{% endfor %}"),
        says="market-back.yaml.j2",
    ),
    Attack("template lipsum bomb", _template("{{ lipsum(10**6) }}"), says="market-back.yaml.j2"),
    Attack(
        "template output alias bomb",
        _template(
            "a: &a [1,1,1,1,1,1,1,1,1,1]\n"
            + "".join(
                f"a{i}: &a{i} [*{'a' if i == 1 else f'a{i - 1}'}, *{'a' if i == 1 else f'a{i - 1}'}, *{'a' if i == 1 else f'a{i - 1}'}, *{'a' if i == 1 else f'a{i - 1}'}, *{'a' if i == 1 else f'a{i - 1}'}, *{'a' if i == 1 else f'a{i - 1}'}, *{'a' if i == 1 else f'a{i - 1}'}, *{'a' if i == 1 else f'a{i - 1}'}, *{'a' if i == 1 else f'a{i - 1}'}]\n"
                for i in range(1, 10)
            )
        ),
        says="market-back",
    ),
    Attack("template reads a dunder", _template("{{ ''.__class__.__mro__ }}"), says="market-back.yaml.j2"),
]


def run(attack: Attack, tmp: Path) -> tuple[bool, float, int, str]:
    """Run one attack in a fresh project; return (answered well, seconds, peak kB of the process, first line)."""
    project = _copy(tmp / "project")
    args = attack.make(project)
    command = [sys.executable, "-m", "generator", *args]
    if attack.unprivileged and os.geteuid() == 0:  # root writes into read-only folders: run as nobody
        for folder, _, _ in os.walk(tmp):
            os.chmod(folder, os.stat(folder).st_mode | 0o005)
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    timer = threading.Timer(300, proc.kill)  # a hang is a failure, not a stuck census
    timer.start()
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)  # reaped here, so its own peak memory is known
    timer.cancel()
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    peak = usage.ru_maxrss  # kB
    good = code == attack.code and "Traceback" not in out and attack.says in out
    first = next(
        (ln for ln in out.splitlines() if "error" in ln or "warning" in ln), out.splitlines()[0] if out else ""
    )
    return good, seconds, peak, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only attacks whose name contains this")
    args = parser.parse_args()
    chosen = [a for a in ATTACKS if args.k in a.name]
    good, worst = 0, (0.0, "")
    for attack in chosen:
        with tempfile.TemporaryDirectory() as tmp:
            ok, seconds, peak, first = run(attack, Path(tmp))
            for folder, _, _ in os.walk(tmp):  # a read-only folder would keep the temporary tree
                os.chmod(folder, 0o755)
        good += ok
        worst = max(worst, (seconds, attack.name))
        print(f"{'ok  ' if ok else 'BAD '} {seconds:6.2f} s {peak / 1024:7.1f} MB  {attack.name}: {first[:150]}")
    print(f"{good}/{len(chosen)} answered well; slowest: {worst[1]} ({worst[0]:.2f} s)")


if __name__ == "__main__":
    main()
