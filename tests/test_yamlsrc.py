"""Safe YAML loading: positions for every key, duplicates, hostile documents, every shipped schema."""

from __future__ import annotations

import pytest
import yaml
from jsonschema import Draft202012Validator

from generator.diagnostics import Report
from generator.source import yamlparse, yamlsrc
from generator.source.schema import _registry


def test_positions_of_keys_and_values():
    source = yamlsrc.load_text("machines:\n  - id: a\n    cost: {feed: 2}\n", "m.yaml", Report())
    assert source.data == {"machines": [{"id": "a", "cost": {"feed": 2}}]}
    assert source.loc(("machines", 0, "cost", "feed")).line == 3
    assert source.loc(("machines", 0, "cost", "feed")).col == 18
    assert source.loc(("machines", 0, "cost"), key=True).col == 5
    assert source.loc(("machines", 0, "missing", "deeper")).line == 2  # falls back to the nearest parent


def test_duplicate_keys_are_errors():
    report = Report()
    yamlsrc.load_text("a: 1\nb: 2\na: 3\n", "d.yaml", report)
    (problem,) = report.errors
    assert problem.headline() == "d.yaml:3:1: error[Y002] a: duplicate key 'a'"
    assert problem.hint == "YAML keeps only the last value; remove or rename one of them"


def test_alias_bombs_are_refused():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 8):
        lines.append(f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 10) + "]")
    report = Report()
    source = yamlsrc.load_text("\n".join(lines) + "\n", "bomb.yaml", report)
    assert [d.code for d in report.errors] == ["Y003"]
    assert "more than 200000 values" in report.errors[0].message
    assert source is not None


def test_python_tags_are_not_executed():
    report = Report()
    yamlsrc.load_text("x: !!python/object/apply:os.system ['echo hacked']\n", "evil.yaml", report)
    (problem,) = report.errors
    assert problem.code == "Y001" and problem.loc.line == 1


def test_files_that_are_not_text_or_too_big(tmp_path):
    binary = tmp_path / "card.yaml"
    binary.write_bytes(b"name: \xff\xfe\n")
    report = Report()
    yamlsrc.load_file(binary, "card.yaml", report)
    assert report.errors[0].message.startswith("file is not UTF-8 text")
    big = tmp_path / "big.yaml"
    big.write_text("x: " + "a" * (yamlsrc.MAX_BYTES + 1))
    report = Report()
    yamlsrc.load_file(big, "big.yaml", report)
    assert report.errors[0].code == "Y003"


@pytest.mark.parametrize("schema_id", sorted(_registry()._resources))
def test_every_shipped_schema_is_a_valid_json_schema(schema_id):
    Draft202012Validator.check_schema(_registry().contents(schema_id))


def test_yaml_module_is_safe_loader_only():
    with pytest.raises(yaml.constructor.ConstructorError):
        yaml.load("!!python/name:os.system", Loader=yamlparse.LOADER)


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A cache of its own, as a new process sees it."""
    from generator.project import cache

    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_SHELVES", {})
    return cache


def _no_parse(source, report):
    raise AssertionError(f"{source.display} parsed again")


def test_a_text_parsed_cleanly_is_not_parsed_again(own_cache, monkeypatch):
    text = "machines:\n  - id: a\n    cost: {feed: 2}\n  - &b {id: b, on: 2.5}\n  - *b\n"
    first = yamlsrc.load_text(text, "m.yaml", Report())
    own_cache.shelf("sources").flush()  # on disk; then a new process
    own_cache._SHELVES.clear()
    monkeypatch.setattr(yamlparse, "parse", _no_parse)
    again = yamlsrc.load_text(text, "other.yaml", Report())
    assert (again.data, again.values, again.keys) == (first.data, first.values, first.keys)
    where = again.loc(("machines", 0, "cost", "feed"))
    assert (where.file, where.line, where.col, where.text) == ("other.yaml", 3, 18, "    cost: {feed: 2}")


def test_a_text_with_a_problem_is_parsed_every_time(own_cache):
    report = Report()
    yamlsrc.load_text("a: 1\na: 2\n", "d.yaml", report)
    yamlsrc.load_text("a: 1\na: 2\n", "d.yaml", report)  # the same problem again: said once, still not kept
    fresh = Report()
    yamlsrc.load_text("a: 1\na: 2\n", "d.yaml", fresh)
    assert [d.headline() for d in report.errors] == ["d.yaml:2:1: error[Y002] a: duplicate key 'a'"]
    assert [d.headline() for d in fresh.errors] == ["d.yaml:2:1: error[Y002] a: duplicate key 'a'"]


def test_values_marshal_cannot_hold_and_torn_entries_are_parsed_again(own_cache, monkeypatch):
    import datetime

    dated = yamlsrc.load_text("day: 2026-12-03\n", "t.yaml", Report())
    assert dated.data == {"day": datetime.date(2026, 12, 3)}
    assert own_cache.shelf("sources").pending == {}  # a date: not kept
    yamlsrc.load_text("n: 1\n", "n.yaml", Report())
    shelf = own_cache.shelf("sources")
    ((key, _),) = shelf.pending.items()
    shelf.pending[key] = b"\x00torn"
    assert yamlsrc.load_text("n: 1\n", "n.yaml", Report()).data == {"n": 1}


def test_the_parsed_texts_kept_are_trimmed_to_their_limit(own_cache, monkeypatch):
    for n in range(3):
        yamlsrc.load_text(f"n: {n}\n", "n.yaml", Report())
    shelf = own_cache.shelf("sources")
    shelf.flush()
    assert shelf.db.execute("SELECT COUNT(*) FROM entries").fetchone() == (3,)
    monkeypatch.setattr(yamlsrc, "KEPT_LIMIT", 0)
    yamlsrc.trim()
    assert shelf.db.execute("SELECT COUNT(*) FROM entries").fetchone() == (0,)
