"""PyYAML behind cardpress's loaders, imported only when a text is parsed: never by a rebuild of unchanged files."""

from __future__ import annotations

import sys
from typing import Any

from ..diagnostics import Report
from ..libpatterns import deferring
from .located import MAX_DEPTH, MAX_NODES, KeyPath, Source, format_path

with deferring():  # PyYAML compiles a slow pattern at import that libyaml does without (generator.libpatterns)
    import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: same marks, ~10× faster
YAMLError = yaml.YAMLError
NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE  # the characters no YAML text may hold
_PLAIN_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


def load(text: str) -> Any:
    """Return what PyYAML's safe loader makes of `text` (cardpress's own files: no positions needed)."""
    return yaml.load(text, Loader=LOADER)


def parse(source: Source, report: Report) -> None:
    """Parse `source.text` into its data and positions; syntax errors go to `report` and leave `data` None."""
    text = source.text
    try:
        node = yaml.compose(text, Loader=LOADER)
    except RecursionError:  # the pure-Python composer recurses once per level of nesting
        report.error("Y003", f"document is nested more than {MAX_DEPTH} levels deep", loc=source.location(0, 0))
        return
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
        return
    except yaml.YAMLError as exc:  # e.g. a reader error on control characters
        report.error("Y001", f"YAML syntax error: {exc}", loc=source.location(0, 0))
        return
    if node is None:
        source.data = None
        return
    builder = _Builder(source, report)
    source.data = builder.build(node, ())


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


_SAFE = yaml.SafeLoader("")  # only its scalar constructors are used, never its stream
_SCALAR_TAGS = frozenset(
    f"tag:yaml.org,2002:{kind}" for kind in ("null", "bool", "int", "float", "binary", "timestamp", "str")
)
_STR = "tag:yaml.org,2002:str"


class _Unusual(Exception):
    """The document uses a YAML feature the quick builder leaves to PyYAML's own constructor."""


def quick_load(text: str) -> Any:
    """Return what `yaml.load(text, Loader=LOADER)` returns, building plain data from the composed nodes
    directly: PyYAML's generic constructor costs more than libyaml's parsing for the many small documents
    a kit renders. Anything unusual (merge keys, other tags, self-reference) goes the standard way."""
    node = yaml.compose(text, Loader=LOADER)
    if node is None:
        return None
    try:
        return _build_node(node, {})
    except (_Unusual, TypeError, RecursionError):
        return yaml.load(text, Loader=LOADER)


def _build_node(node: yaml.Node, made: dict[int, Any]) -> Any:
    """Build one node; `made` shares the value of a node reached again through an alias, as PyYAML does."""
    if id(node) in made:
        if made[id(node)] is _BUILDING:
            raise _Unusual("a collection that contains itself")
        return made[id(node)]
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _STR:
            return node.value
        if node.tag not in _SCALAR_TAGS:
            raise _Unusual(node.tag)
        value = _SAFE.yaml_constructors[node.tag](_SAFE, node)
    elif isinstance(node, yaml.SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            raise _Unusual(node.tag)
        made[id(node)] = _BUILDING
        value = [_build_node(item, made) for item in node.value]
    else:
        if node.tag != "tag:yaml.org,2002:map":
            raise _Unusual(node.tag)
        made[id(node)] = _BUILDING
        value = {}
        for key_node, value_node in node.value:
            if key_node.tag in ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"):
                raise _Unusual(key_node.tag)
            value[_build_node(key_node, made)] = _build_node(value_node, made)
    made[id(node)] = value
    return value


_BUILDING = object()


def _short(text: str, limit: int = 120) -> str:
    """Shorten an exception's text for a message (some quote the whole offending value)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
