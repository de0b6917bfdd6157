"""Attack census: run every hostile input and careless mistake of issues 13 and 25 through the real `cardpress` CLI.

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
    after: Callable[[Path], bool] | None = None  # a check of the files afterwards (given the temporary folder)
    max_output: int = 1 << 20  # bytes the command may print at most


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


# --- issue 25: writes through links, formulas in shop CSVs, output bombs, exit 70 -----------------------


def _art(p: Path) -> list[str]:
    return ["art", "pocket-foundry", "--make-missing", "--root", str(p)]


def _link_art(target: Callable[[Path], str]) -> Callable[[Path], list[str]]:
    def make(p: Path) -> list[str]:
        art = p / GAME / "art" / "feed-belt.png"
        art.unlink()
        art.symlink_to(target(p))
        return _art(p)

    return make


def _art_folder_out(p: Path) -> list[str]:
    shutil.rmtree(p / GAME / "art")
    (p.parent / "elsewhere").mkdir()
    (p / GAME / "art").symlink_to(p.parent / "elsewhere")
    return _art(p)


def _nothing_outside(tmp: Path) -> bool:
    """True when no file was made outside the project (the links' targets stay missing, or empty folders)."""
    made = list((tmp / "elsewhere").rglob("*")) if (tmp / "elsewhere").exists() else []
    return not (tmp / "outside").exists() and not made


def _formula_names(p: Path) -> list[str]:
    shutil.copytree(ROOT / "cards" / "hedgerow", p / "cards" / "hedgerow")
    table = p / "cards" / "hedgerow" / "critters.csv"
    table.write_text(table.read_text(encoding="utf-8").replace("\nHeron,", '\n"=HYPERLINK(""x"")",', 1))
    targets = ["--to", "thegamecrafter", "--to", "makeplayingcards", "--to", "cards"]
    return ["export", "hedgerow", *targets, "--root", str(p), "--out", str(p / "out")]


def _no_formulas(tmp: Path) -> bool:
    """True when every shop CSV was written and none has a cell a spreadsheet would run as a formula."""
    import csv

    found = list((tmp / "project" / "out").rglob("*.csv"))
    cells = [c for f in found for row in csv.reader(f.read_text(encoding="utf-8").splitlines()) for c in row]
    neutralised = '\'=HYPERLINK("x")' in cells  # the card's name, as a spreadsheet shows it: text
    return len(found) >= 3 and neutralised and not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]


def _counts_line(size: int) -> Callable[[Path], list[str]]:
    def make(p: Path) -> list[str]:
        items, n = [], 7
        while sum(len(i) + 2 for i in items) < size:
            items.append(str(n))
            n += 1
        _edit(p, "game.yaml", "supported: [2, 3, 4, 6]", f"supported: [{', '.join(items)}]")
        return _v(p)

    return make


def _loop_file(relative: str, args: Callable[[Path], list[str]]) -> Callable[[Path], list[str]]:
    def make(p: Path) -> list[str]:
        path = p / relative
        if path.exists():
            path.unlink()
        path.symlink_to(path.name)
        return args(p)

    return make


def _include_loop(p: Path) -> list[str]:
    (p / "layouts" / "pocket-foundry" / "market-back.yaml.j2").write_text('{% include "loopy.j2" %}\n')
    (p / "layouts" / "pocket-foundry" / "loopy.j2").symlink_to("loopy.j2")
    return _v(p)


def _nested_parens(p: Path) -> list[str]:
    (p / "layouts" / "pocket-foundry" / "market-back.yaml.j2").write_text(
        "x: {{ " + "(" * 100 + "1" + ")" * 100 + " }}\n"
    )
    return _v(p)


def _random_glyf(p: Path) -> list[str]:
    import random
    import struct

    path = p / "fonts" / "Lato-Regular.ttf"
    data = bytearray(path.read_bytes())
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        if tag == b"glyf":
            data[offset : offset + length] = random.Random(1).randbytes(length)
    path.write_bytes(bytes(data))
    return _b(p)


def _corrupt_cache(p: Path) -> list[str]:
    subprocess.run([sys.executable, "-m", "generator", *_v(p)], cwd=p, capture_output=True, env=_env(p.parent))
    for path in (p.parent / "cache").rglob("*"):
        if path.is_file() and ".sqlite3" not in path.name:
            path.write_bytes(b"\xff\xfe" + os.urandom(64))
    return _v(p)


def _long_out(p: Path) -> list[str]:
    return ["build", "pocket-foundry", "--root", str(p), "--out", str(p / ("o" * 300))]


def _not_icc(p: Path) -> list[str]:
    (p / "bad.icc").write_text("not a colour profile\n")
    return [
        "export",
        "pocket-foundry",
        "--to",
        "drivethrucards",
        "--cmyk-profile",
        str(p / "bad.icc"),
        "--root",
        str(p),
        "--out",
        str(p / "out"),
    ]


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "CARDPRESS_CACHE": str(tmp / "cache")}


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
    # issue 25
    Attack(
        "art --make-missing through a dangling absolute link",
        _link_art(lambda p: str(p.parent / "outside" / "deep" / "x.png")),
        says="O002",
        after=_nothing_outside,
    ),
    Attack(
        "art --make-missing through a dangling relative link",
        _link_art(lambda p: "../../../../outside/x.png"),
        says="O002",
        after=_nothing_outside,
    ),
    Attack(
        "art --make-missing through a link into a sibling game",
        _link_art(lambda p: "../../hedgerow/art/x.png"),
        says="O002",
        after=lambda t: not (t / "project" / "cards" / "hedgerow").exists(),
    ),
    Attack("art --make-missing into an art/ linked out", _art_folder_out, says="O002", after=_nothing_outside),
    Attack(
        "a card named =HYPERLINK(...) in shop CSVs", _formula_names, code=0, says="thegamecrafter", after=_no_formulas
    ),
    Attack(
        "2,000 player counts on one line", _counts_line(12_000), says="more like it on this line", max_output=100_000
    ),
    Attack("600 KB one-line game.yaml", _counts_line(600_000), says="more like it on this line", max_output=100_000),
    Attack("included template is a symlink loop", _include_loop, says="loopy.j2"),
    Attack("layouts/common/macros.j2 is a symlink loop", _loop_file("layouts/common/macros.j2", _v), says="macros.j2"),
    Attack("fonts/fonts.yaml is a symlink loop", _loop_file("fonts/fonts.yaml", _v), says="fonts.yaml"),
    Attack("100 nested parentheses in a template", _nested_parens, says="market-back.yaml.j2"),
    Attack("font whose glyf table is random bytes", _random_glyf, says="Lato-Regular.ttf"),
    Attack("corrupted cache files", _corrupt_cache, code=0, says="ok"),
    Attack("--out component over 255 bytes", _long_out, says="too long"),
    Attack("a non-ICC --cmyk-profile", _not_icc, says="X003"),
    Attack("--paper a5", lambda p: ["build", "pocket-foundry", "--root", str(p), "--paper", "a5"], code=2, says="U010"),
    Attack(
        "--players two",
        lambda p: ["build", "pocket-foundry", "--root", str(p), "--players", "two"],
        code=2,
        says="did you mean '2'?",
    ),
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
    proc = subprocess.Popen(
        command, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=_env(tmp)
    )
    timer = threading.Timer(300, proc.kill)  # a hang is a failure, not a stuck census
    timer.start()
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)  # reaped here, so its own peak memory is known
    timer.cancel()
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    peak = usage.ru_maxrss  # kB
    good = code == attack.code and "Traceback" not in out and attack.says in out
    good = good and len(out.encode()) <= attack.max_output and (attack.after is None or attack.after(tmp))
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
