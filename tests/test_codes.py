"""The code registry: every code the source reports is registered, every registered code is reported, the manual shows them all."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT, run_cli

from generator.codes import GENERIC, registry

CODE = re.compile(r"[A-Z]{1,2}\d{3}")
SOURCE = ROOT / "generator"


def _registry_dicts(tree: ast.Module) -> set[int]:
    """Return the ids of the dict literals that define a registry (`CODES = {...}`), which report nothing."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "CODES" for t in node.targets)
        and isinstance(node.value, ast.Dict)
    }


def _schema_codes() -> set[str]:
    """Return the codes schema.check makes: its finding numbers under every prefix a caller passes."""
    tree = ast.parse((SOURCE / "source" / "schema.py").read_text(encoding="utf-8"))
    numbers = {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Finding"
        and isinstance(node.args[0], ast.Constant)
    }
    prefixes = {"S"}  # check()'s default
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "code_prefix" and isinstance(node.value, ast.Constant):
                prefixes.add(node.value.value)
    return {p + n for p in prefixes for n in numbers}


def used_in_source() -> dict[str, list[str]]:
    """Return {code: [file:line, …]} for every code string the source reports (registries left out)."""
    found: dict[str, list[str]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        if path == SOURCE / "codes.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _registry_dicts(tree)
        skipped = {id(n) for d in ast.walk(tree) if id(d) in skip for n in ast.walk(d)}
        for node in ast.walk(tree):
            is_code = isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value)
            if is_code and id(node) not in skipped:
                found.setdefault(node.value, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    for code in _schema_codes():
        found.setdefault(code, []).append("generator/source/schema.py (Finding)")
    return found


def test_the_scan_finds_codes_of_every_kind():
    used = used_in_source()
    for code in ("Y001", "S003", "L001", "L110", "C002", "PF010", "ME016", "U009", "B005"):
        assert code in used, code
    assert "PF013" not in used and "B003" not in used  # retired


def test_every_code_the_source_reports_is_registered():
    unregistered = {code: where for code, where in used_in_source().items() if code not in registry()}
    assert unregistered == {}


def test_every_registered_code_is_reported_somewhere():
    used = used_in_source()
    assert sorted(set(registry()) - set(used)) == []


def test_codes_are_unique_well_formed_and_one_line():
    everything = registry()
    for code, entry in everything.items():
        assert CODE.fullmatch(code) and entry.code == code
        assert entry.meaning and "\n" not in entry.meaning and "|" not in entry.meaning, code
    assert {c.layer for c in everything.values() if c.code not in GENERIC} == {"pocket-foundry", "micro-engine"}


def test_the_manuals_code_page_is_the_registry():
    text = (ROOT / "docs" / "reference" / "codes.md").read_text(encoding="utf-8")
    rows = [line.split(" | ")[0].removeprefix("| ") for line in text.splitlines() if CODE.match(line[2:])]
    assert rows == list(registry())  # every code once, in the registry's order
    assert '| S003 | schema | unknown key (with "did you mean")' in text
    assert "| PF014 | `rulebook.txt` is missing," in text and "| ME020 | the rulebook gives another number" in text


def test_cardpress_codes_explains_one_code_or_lists_them_all(tmp_path: Path):
    one = run_cli("codes", "s003", cwd=tmp_path)
    assert (one.returncode, one.stdout) == (
        0,
        'S003   schema  unknown key (with "did you mean"); a deck warns of a column or key no template reads that '
        "is close to one that is read (a typo such as `copeis`)\n",
    )
    every = run_cli("codes", cwd=tmp_path)
    assert every.returncode == 0 and len(every.stdout.splitlines()) == len(registry())
    assert every.stdout.splitlines()[0] == "Y001   YAML             YAML syntax error"
    unknown = run_cli("codes", "ME099", cwd=tmp_path)
    assert unknown.returncode == 1
    assert unknown.stderr.splitlines()[:2] == [
        "error[U009] no diagnostic code 'ME099'",
        "  = hint: did you mean 'ME019'?",
    ]
