"""Safe YAML loading: positions for every key, duplicates, hostile documents, every shipped schema."""

from __future__ import annotations

import pytest
import yaml
from jsonschema import Draft202012Validator

from generator.diagnostics import Report
from generator.source import yamlsrc
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
        yaml.load("!!python/name:os.system", Loader=yamlsrc.LOADER)
