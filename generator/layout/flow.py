"""A quick reader for the shape of YAML that layout templates render: top-level keys and one-line flow items.

A kit renders thousands of small documents like

    bleed: 3
    elements:
    - {rect: {x: -3, y: -3, w: 69.5, h: 94.9, fill: "#f4eddc", bleed: true}}

and parsing each with a general YAML parser costs more than rendering it. `read` handles only the plain
subset the shared macros write (decimal numbers, plain words, quoted strings, flow mappings and lists),
rewriting each flow item as JSON for the json module to read, and returns None for anything else, which
then goes to PyYAML: it never returns a value PyYAML would not (tests/test_layout_flow.py).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

# Strings, keys and words are rewritten as JSON; numbers, brackets and commas pass as they are, and json
# checks them. Every letter or quote must belong to one of these pieces, or the text is left to PyYAML.
_END = r"(?=[ ]*[,}\]]|[ ]*$)"
_TOKEN = re.compile(
    rf"""(?P<dq>"(?:[^"\\]|\\["\\/bfnrt]|\\u00[0-9a-fA-F]{{2}})*"){_END}
    | (?P<sq>'(?:[^']|'')*'){_END}
    | (?<![\w-])(?P<key>[A-Za-z_][\w-]*):[ ]
    | (?<![\w-])(?P<word>[A-Za-z_][\w-]*){_END}
    | (?P<other>["'A-Za-z_])""",
    re.VERBOSE,
)
_LITERALS = {"true": "true", "True": "true", "TRUE": "true", "false": "false", "False": "false", "FALSE": "false"}
_LITERALS |= {"null": "null", "Null": "null", "NULL": "null"}
_BOOLISH = frozenset({"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"})  # YAML 1.1
_BREAKS = re.compile("[\x85\u2028\u2029\t\r]")  # line breaks YAML folds, and tabs: left to PyYAML
_ITEM_KEY = re.compile(r"[A-Za-z_][\w-]*: ")
_TOP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$")


class _Unsure(Exception):
    """The text is outside the subset: PyYAML decides."""


def read(text: str) -> dict[str, Any] | None:
    """Return the document as PyYAML would load it, or None when it is not of the simple shape."""
    found = read_items(text)
    return found[0] if found else None


def read_items(text: str) -> tuple[dict[str, Any], dict[str, list[str]]] | None:
    """Return what `read` returns, and for each top-level block list the JSON text of each of its items
    (equal texts are equal items: a reader may check an item once and reuse what it made of it)."""
    from ..source.yamlparse import NON_PRINTABLE  # here: a rebuild of unchanged faces loads no PyYAML

    if NON_PRINTABLE.search(text) or _BREAKS.search(text):
        return None
    try:
        keys, values, blocks = _document(text)
        loaded = json.loads(f"[{','.join(values)}]")
    except (_Unsure, ValueError, RecursionError):
        return None
    return dict(zip(keys, loaded)), blocks


def _document(text: str) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """Return the top-level keys, each one's value as JSON (a block list as a JSON array), and each block
    list's items as JSON."""
    keys: list[str] = []
    values: list[str | list[str]] = []  # a value's JSON, or the items of the block list under its key
    indent = -1  # where the dashes of the current block list stand
    for line in text.split("\n"):
        body = line.rstrip(" ")
        stripped = body.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("- "):
            block = values[-1] if values else None
            here = len(body) - len(stripped)
            if not isinstance(block, list) or indent not in (-1, here):
                raise _Unsure
            indent = here
            item = stripped[2:].lstrip(" ")
            block.append("{" + _json(item) + "}" if _ITEM_KEY.match(item) else _json(item))  # `- key: value`
            continue
        match = _TOP_KEY.match(body)
        if match is None or match.group(1) in keys or _special(match.group(1)) or (values and values[-1] == []):
            raise _Unsure  # a repeated or boolean key, or a key with nothing under it (null): left to PyYAML
        key, rest = match.groups()
        keys.append(key)
        values.append(_json(rest) if rest else [])
        indent = -1
    if not keys or values[-1] == []:
        raise _Unsure
    blocks = {k: v for k, v in zip(keys, values) if isinstance(v, list)}
    return keys, [v if isinstance(v, str) else f"[{','.join(v)}]" for v in values], blocks


@functools.lru_cache(maxsize=8192)  # a kit's faces repeat most lines (frames, bands, marks) word for word
def _json(flow: str) -> str:
    """Rewrite one flow value as JSON, or raise _Unsure for anything outside the subset."""
    return _TOKEN.sub(_piece, flow)


def _special(key: str) -> bool:
    """Return True for a key YAML reads as a boolean or null, not as the word."""
    return key in _LITERALS or key in _BOOLISH


def _piece(m: re.Match[str]) -> str:
    kind = m.lastgroup
    text = m.group(kind or 0)
    if kind == "dq":
        return text
    if kind == "key":
        if _special(text):
            raise _Unsure
        return f'"{text}": '
    if kind == "word":
        if text in _BOOLISH:
            raise _Unsure
        return _LITERALS.get(text) or f'"{text}"'
    if kind == "sq":
        return json.dumps(text[1:-1].replace("''", "'"), ensure_ascii=False)
    raise _Unsure
