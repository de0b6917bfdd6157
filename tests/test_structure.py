"""The package's shape: no import cycle, a small root, every import at the top.

An import cycle is one that runs: module-level and function-level imports count; imports under
`if TYPE_CHECKING:` do not, since they name types for the checker and never execute.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "generator"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Return the project modules `name` imports when it runs: at the top and in functions, not for types only."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{module}.{alias.name}"
                found.add(full if full in modules else module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in modules and m != name}


def cycles() -> list[list[str]]:
    """Return every import cycle among the package's modules (strongly connected components of two or more)."""
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_no_module_imports_itself_through_others():
    assert cycles() == []


def test_the_cycle_finder_finds_a_cycle(tmp_path, monkeypatch):
    package = tmp_path / "generator"
    (package / "a").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a" / "__init__.py").write_text("")
    (package / "a" / "one.py").write_text("from . import two\n")
    (package / "a" / "four.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import two\n"
    )
    (package / "a" / "two.py").write_text("def f():\n    from ..a.one import x\n    from .four import y\n")
    (package / "three.py").write_text("from .a import one\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", package)
    assert cycles() == [["generator.a.one", "generator.a.two"]]


def test_the_root_holds_few_modules_and_the_stages_have_folders():
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(root) <= 12, root
    for stage in ("cli", "source", "editions", "impose", "layout", "render", "export", "sim"):
        assert (PACKAGE / stage / "__init__.py").is_file(), stage


def test_no_import_waits_below_code():
    late = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if "noqa: E402" in p.read_text(encoding="utf-8")]
    assert late == []


def test_games_use_only_the_toolkit_and_the_contract():
    modules = _modules()
    allowed = {"generator.sdk", "generator.contract"}
    for name, path in modules.items():
        if not name.startswith("generator.games."):
            continue
        game = ".".join(name.split(".")[:3])
        outside = {m for m in _imports(name, path, modules) if not m.startswith(game)}
        assert outside <= allowed, f"{path.relative_to(PACKAGE.parent)} imports {sorted(outside - allowed)}"


def test_the_toolkit_names_only_what_it_can_import():
    import generator.sdk as sdk

    assert len(sdk.__all__) == len(set(sdk.__all__)) > 50
    for name in sdk.__all__:
        assert getattr(sdk, name) is not None, name
