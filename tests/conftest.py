"""Shared fixtures: the project root, throwaway copies of it, a built kit, and golden files."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"


# Hypothesis's per-example deadline is wall-clock time: on a busy machine a correct example can take 10× longer,
# so no test here has one. CI replays the same examples every run (derandomize), so it never fails by luck.
settings.register_profile("cardpress", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("cardpress")


def pytest_configure(config):
    """Keep the tests' caches (templates, schemas, laid-out faces) apart from the user's own."""
    if "CARDPRESS_CACHE" not in os.environ:
        os.environ["CARDPRESS_CACHE"] = tempfile.mkdtemp(prefix="cardpress-test-cache-")


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", help="rewrite golden files from the current output")


@pytest.fixture
def update_goldens(request) -> bool:
    """True when golden files should be rewritten instead of compared."""
    return request.config.getoption("--update-goldens") or os.environ.get("UPDATE_GOLDENS") == "1"


def check_golden(name: str, actual: str, update: bool) -> None:
    """Compare `actual` with tests/golden/<name>, or rewrite it when updating."""
    path = GOLDEN / name
    if update or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        if not update:
            pytest.fail(f"golden file {name} was missing and has been written; check it in")
    assert actual == path.read_text(encoding="utf-8"), f"differs from golden {name} (run pytest --update-goldens)"


@pytest.fixture(scope="session")
def root() -> Path:
    """The project checkout."""
    return ROOT


UV = Path(sys.executable).parent / "uv"  # the test extra installs it; pip does the same, slower


def build_wheel(source: Path, dest: Path) -> Path:
    """Build the wheel of the project at `source` into `dest` (uv when present, else pip) and return it."""
    if UV.exists():
        command = [str(UV), "build", "--quiet", "--wheel", "--out-dir", str(dest), str(source)]
    else:
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dest), str(source)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (wheel,) = dest.glob("*.whl")
    return wheel


def make_venv(where: Path, *requirements: str) -> Path:
    """Make a fresh venv at `where`, install `requirements` (wheels or names) into it and return its bin/."""
    steps = (
        [[str(UV), "venv", "--quiet", "--python", sys.executable, str(where)]]
        if UV.exists()
        else [[sys.executable, "-m", "venv", str(where)]]
    )
    if requirements:
        python = str(where / "bin" / "python")
        steps.append(
            [str(UV), "pip", "install", "--quiet", "--python", python, *requirements]
            if UV.exists()
            else [python, "-m", "pip", "install", "--quiet", *requirements]
        )
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    return where / "bin"


def copy_project(dest: Path, games: tuple[str, ...] = ("pocket-foundry",)) -> Path:
    """Copy cards/<games>, layouts/ and fonts/ into `dest`, a project of its own."""
    for game in games:
        shutil.copytree(ROOT / "cards" / game, dest / "cards" / game)
    shutil.copytree(ROOT / "layouts", dest / "layouts")
    shutil.copytree(ROOT / "fonts", dest / "fonts")
    return dest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A private copy of the Pocket Foundry project that a test may break."""
    return copy_project(tmp_path / "project")


def default_sigint() -> None:
    """Give a child the test will interrupt Ctrl-C as a terminal would, even when the tests themselves run
    as a background job (whose children inherit SIGINT ignored, so Python installs no KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None, spawn: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run `cardpress ARGS` as a user would: through the console entry point, in this process.

    The command sees `cwd` as its current folder, `env` as its environment, an empty stdin, and its output
    is captured, exit code included. `spawn` starts a fresh interpreter instead, for what only a new process
    shows (signals, import-time behaviour, another sys.path): such tests are marked `slow`.
    """
    if spawn:
        return subprocess.run(
            [sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
        )
    return in_process(list(args), cwd, env)


def in_process(args: list[str], cwd: Path, env: dict[str, str] | None) -> subprocess.CompletedProcess[str]:
    """Run generator.cli.main.main() with argv, folder, environment and standard streams of its own."""
    import contextlib
    import io

    from generator.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    saved = (sys.argv, os.getcwd(), dict(os.environ), sys.stdin)
    sys.argv, sys.stdin = ["cardpress", *args], io.StringIO()
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv, stdin = saved[0], saved[3]
        sys.stdin = stdin
        os.chdir(saved[1])
        os.environ.clear()
        os.environ.update(saved[2])
    return subprocess.CompletedProcess(["cardpress", *args], code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="session")
def kit_pdfs(tmp_path_factory) -> dict[str, Path]:
    """Build Pocket Foundry once for the session; return {paper: PDF path}."""
    from generator.build import build

    out = tmp_path_factory.mktemp("kit")
    written = build(ROOT, "pocket-foundry", papers=["a4", "letter"], players=None, out=out).written
    return {p.stem.rsplit("-", 1)[1]: p for p in written}
