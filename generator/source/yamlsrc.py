"""Safe YAML loading that remembers where every key and value came from."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import Location, Report
from . import safefile

MAX_BYTES = 2_000_000  # card files are small; refuse anything that looks like an attack
MAX_NODES = 200_000  # aliases can expand a tiny file into a huge tree ("billion laughs")
MAX_DEPTH = 100  # mappings and lists nested deeper than this are refused, long before Python's recursion limit

KeyPath = tuple[Any, ...]
_PLAIN_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: same marks, ~10× faster


@dataclass
class Source:
    """A loaded YAML document: plain Python data plus a position for every key path."""

    display: str
    text: str
    data: Any = None
    values: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    keys: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    # For a document merged from several files (a fan edition over its base): the file each position is in.
    origin: dict[KeyPath, Source] = field(default_factory=dict)
    _lines: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    def loc(self, path: KeyPath = (), *, key: bool = False) -> Location:
        """Return the location of the value (or key) at `path`, falling back to its nearest parent."""
        table = self.keys if key else self.values
        probe = tuple(path)
        while probe not in table and probe:
            probe = probe[:-1]
        line, col = table.get(probe, (0, 0))
        return self.origin.get(probe, self).location(line, col)

    def location(self, line: int, col: int) -> Location:
        """Return a Location for a 0-based line and column."""
        if self._lines is None:  # split once: a file with thousands of problems asks thousands of times
            self._lines = self.text.splitlines()
        lines = self._lines
        text = lines[line] if 0 <= line < len(lines) else ""
        return Location(self.display, line + 1, col + 1, text)


def format_path(path: KeyPath) -> str:
    """Render a key path as `machines[3].run.pay`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def load_text(text: str, display: str, report: Report) -> Source:
    """Parse YAML text safely; syntax errors go to `report` and leave `data` as None."""
    source = Source(display, text)
    try:
        node = yaml.compose(text, Loader=LOADER)
    except RecursionError:  # the pure-Python composer recurses once per level of nesting
        report.error("Y003", f"document is nested more than {MAX_DEPTH} levels deep", loc=source.location(0, 0))
        return source
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        loc = source.location(mark.line, mark.column) if mark else None
        hint = "check the indentation and quoting on this line and the one above"
        start = exc.context_mark
        if exc.context and start and (not mark or (start.line, start.column) != (mark.line, mark.column)):
            what = exc.context.removeprefix("while ").removeprefix("parsing ").removeprefix("scanning ")
            what = what.removeprefix("a ").removeprefix("an ")
            hint = f"the {what} that starts at line {start.line + 1}, column {start.column + 1} is not closed properly"
        report.error("Y001", f"YAML syntax error: {problem}", loc=loc, hint=hint)
        return source
    except yaml.YAMLError as exc:  # e.g. a reader error on control characters
        report.error("Y001", f"YAML syntax error: {exc}", loc=source.location(0, 0))
        return source
    if node is None:
        source.data = None
        return source
    builder = _Builder(source, report)
    source.data = builder.build(node, ())
    return source


def load_file(path: Path, display: str, report: Report, roots: safefile.Roots | None = None) -> Source:
    """Read and parse a YAML file; problems reading it are reported, not raised.

    Only a regular file inside `roots` is read (by default the project the path lies in, links
    resolved first), and only up to MAX_BYTES: a link to a system file, a FIFO or /dev/zero is refused.
    """
    try:
        text = safefile.read_text(path, MAX_BYTES, roots)
    except safefile.Refused as exc:
        exc.report(report, display)
        return Source(display, "")
    return load_text(text, display, report)


class _Builder:
    """Turn a composed YAML node tree into plain data while recording positions."""

    def __init__(self, source: Source, report: Report):
        self.source = source
        self.report = report
        self.loader = yaml.SafeLoader("")
        self.count = 0
        self.too_big = False
        self.too_deep = False

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        self.count += 1
        if len(path) > MAX_DEPTH:
            if not self.too_deep:
                self.too_deep = True
                self.report.error(
                    "Y003",
                    f"document is nested more than {MAX_DEPTH} levels deep",
                    loc=self.source.location(node.start_mark.line, node.start_mark.column),
                    hint="card files and layouts are a few levels deep; look for runaway brackets",
                )
            return None
        if self.count > MAX_NODES:
            if not self.too_big:
                self.too_big = True
                self.report.error(
                    "Y003",
                    f"document expands to more than {MAX_NODES} values",
                    loc=self.source.location(node.start_mark.line, node.start_mark.column),
                    hint="anchors and aliases may not be used to blow up the size of a file",
                )
            return None
        self.source.values.setdefault(path, (node.start_mark.line, node.start_mark.column))
        if not isinstance(node, yaml.ScalarNode) and node.tag not in _PLAIN_TAGS:
            self.report.error(
                "Y001",
                f"unsupported YAML tag {node.tag.replace('tag:yaml.org,2002:', '!!')}",
                loc=self.source.location(node.start_mark.line, node.start_mark.column),
                hint="card files hold plain mappings, lists and values",
            )
            return None
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,)) for i, child in enumerate(node.value)]
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            mark = exc.problem_mark or node.start_mark
            self.report.error(
                "Y001", f"YAML value error: {exc.problem}", loc=self.source.location(mark.line, mark.column)
            )
            return None
        except (ValueError, OverflowError) as exc:  # e.g. a whole number of more than 4300 digits
            digits = sys.get_int_max_str_digits()
            what = f"a whole number of more than {digits} digits" if "digits" in str(exc) else _short(str(exc))
            self.report.error(
                "Y001",
                f"YAML value error: {what}",
                path=format_path(path),
                loc=self.source.location(node.start_mark.line, node.start_mark.column),
            )
            return None

    def _mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict[str, Any]:
        try:
            self.loader.flatten_mapping(node)  # resolve `<<: *anchor` merge keys
        except yaml.constructor.ConstructorError as exc:
            mark = exc.problem_mark or node.start_mark
            self.report.error(
                "Y001", f"YAML merge error: {exc.problem}", loc=self.source.location(mark.line, mark.column)
            )
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.report.error(
                    "Y001",
                    "mapping keys must be plain scalars",
                    loc=self.source.location(key_node.start_mark.line, key_node.start_mark.column),
                )
                continue
            try:
                key = self.loader.construct_object(key_node)
                hash(key)
            except (yaml.constructor.ConstructorError, ValueError, OverflowError, TypeError) as exc:
                self.report.error(
                    "Y001",
                    f"YAML key error: {_short(str(getattr(exc, 'problem', None) or exc))}",
                    loc=self.source.location(key_node.start_mark.line, key_node.start_mark.column),
                )
                continue
            if key in out:
                self.report.error(
                    "Y002",
                    f"duplicate key '{key}'",
                    path=format_path(path + (key,)),
                    loc=self.source.location(key_node.start_mark.line, key_node.start_mark.column),
                    hint="YAML keeps only the last value; remove or rename one of them",
                )
            self.source.keys[path + (key,)] = (key_node.start_mark.line, key_node.start_mark.column)
            self.source.values[path + (key,)] = (value_node.start_mark.line, value_node.start_mark.column)
            out[key] = self.build(value_node, path + (key,))
        return out


def _short(text: str, limit: int = 120) -> str:
    """Shorten an exception's text for a message (some quote the whole offending value)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
