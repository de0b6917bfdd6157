"""Slots: a face's values standing in a probe render, noting every use that makes the layout depend on them.

A probe renders a template once for many faces (see generator.layout.programs). Each text or whole-number
value of the face's context is replaced by a Slot holding the real value. Quoted with `|q` (or passed
through a pure string filter first), a Slot writes a marker in its place, which binding later replaces with
each face's own value. Any other use (a test, a comparison, arithmetic, printing it unquoted, reading an
attribute, calling a function with it) gives the real value and marks the slot's place in the context as
structural: the program then holds only for faces with that same value there.
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .markup import escape

MARK = "\ue000"  # opens a marker: MARK, one character naming the slot, END (private-use characters)
END = "\ue001"
FIRST = 0xE100  # the character of slot 0
MAX_SLOTS = 0xF800 - FIRST  # slots one probe may hold (the private-use area ends at U+F8FF)
MAX_TEXT = 4096  # characters: longer values are not slotted (their size is budgeted as they are)
# What a slot's text may not hold, in one search: what YAML refuses in a document (yaml.reader.Reader's
# NON_PRINTABLE: such a value is rendered for real, so the document says so where it is), and the private-use
# characters markers are made of (U+E000 to U+F8FF). Written as the characters refused, not as the negation of
# those allowed: the same set, compiled in 9 M instructions instead of 51 M (every run imports this module).
_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\uf8ff\ufffe\uffff]")

Path = tuple[str | int, ...]

# Filters that are functions of the value alone: a slot passes through them, its value computed for each face.
STEPS: dict[str, Callable[[Any], Any]] = {
    "upper": lambda value: str(value).upper(),
    "lower": lambda value: str(value).lower(),
    "escape_markup": escape,
}
BLIND_TESTS = frozenset({"defined", "undefined", "none"})  # a slot answers these as its value would


def slottable(value: Any) -> bool:
    """Return True for a value a slot may stand for: text or a whole number (not a boolean) that a quoted
    marker and the value itself write as one YAML scalar each, parsed back to the same value."""
    kind = type(value)
    if kind is int:
        return bool(abs(value) < 10**15)
    return kind is str and len(value) <= MAX_TEXT and not _REFUSED.search(value)


def marker(index: int) -> str:
    """Return the text slot `index` stands as in a probe's output (before quoting)."""
    return f"{MARK}{chr(FIRST + index)}{END}"


def quoted_size(value: Any) -> int:
    """Return how many characters `|q` writes for `value`."""
    return len(json.dumps(value, ensure_ascii=False))


MARKER_SIZE = quoted_size(marker(0))  # every marker quotes to the same length
EXTRA = quoted_size("\\" * MAX_TEXT) - MARKER_SIZE  # the most a real value may write beyond its marker


def beyond(text: str, extra: int) -> int:
    """Return the most characters the markers in a probe's `text` may stand for beyond their own, at `extra` each."""
    return text.count(MARK) * extra


@dataclass
class Probe:
    """The slots of one probe render and what the render did with them."""

    slots: list[Slot] = field(default_factory=list)
    structural: set[Path] = field(default_factory=set)  # places whose value the layout depends on
    quoted: set[int] = field(default_factory=set)  # slots that wrote a marker

    def slot(self, path: Path, value: Any, steps: tuple[str, ...] = (), parts: tuple[str | Slot, ...] = ()) -> Slot:
        """Return a new slot for the value at `path` (or joined from `parts`), after the pure filters `steps`."""
        made = Slot(path, value, self, len(self.slots), steps, parts)
        self.slots.append(made)
        return made


class Slot:
    """A value standing in a probe render: quoted, it writes a marker; used any other way, it is the value."""

    __slots__ = ("_cp_path", "_cp_value", "_cp_probe", "_cp_index", "_cp_steps", "_cp_parts")

    def __init__(
        self,
        path: Path,
        value: Any,
        probe: Probe,
        index: int,
        steps: tuple[str, ...],
        parts: tuple[str | Slot, ...] = (),
    ) -> None:
        self._cp_path = path
        self._cp_value = value
        self._cp_probe = probe
        self._cp_index = index
        self._cp_steps = steps  # the pure filters applied to the context's value (or the joined parts), in order
        self._cp_parts = parts  # for text joined from slots and literals: the pieces, in order

    def _cp_real(self) -> Any:
        """Return the value, noting that the layout depends on it (on every slot it was joined from)."""
        if self._cp_parts:
            for part in self._cp_parts:
                if type(part) is Slot:
                    part._cp_real()
        else:
            self._cp_probe.structural.add(self._cp_path)
        return self._cp_value

    def _cp_marker(self) -> str:
        """Return the marker text, noting that this slot was quoted."""
        self._cp_probe.quoted.add(self._cp_index)
        return marker(self._cp_index)


def real(value: Any) -> Any:
    """Return `value`, or the value a Slot stands for (marking it structural)."""
    return value._cp_real() if type(value) is Slot else value


def reals(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Return call arguments with every Slot among them replaced by its value."""
    if any(type(a) is Slot for a in args):
        args = tuple(real(a) for a in args)
    if any(type(v) is Slot for v in kwargs.values()):
        kwargs = {k: real(v) for k, v in kwargs.items()}
    return args, kwargs


def _unary(op: Callable[[Any], Any]) -> Callable[[Slot], Any]:
    return lambda self: op(self._cp_real())


def _binary(op: Callable[[Any, Any], Any]) -> Callable[[Slot, Any], Any]:
    return lambda self, other: op(self._cp_real(), real(other))


def _reflected(op: Callable[[Any, Any], Any]) -> Callable[[Slot, Any], Any]:
    return lambda self, other: op(real(other), self._cp_real())


_UNARY: dict[str, Callable[[Any], Any]] = {
    "bool": bool,
    "len": len,
    "iter": iter,
    "str": str,
    "repr": repr,
    "hash": hash,
    "int": int,
    "float": float,
    "index": operator.index,
    "neg": operator.neg,
    "pos": operator.pos,
    "abs": abs,
    "invert": operator.invert,
    "reversed": reversed,
}
_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
    "lshift": operator.lshift,
    "rshift": operator.rshift,
    "divmod": divmod,
    "getitem": operator.getitem,
    "contains": operator.contains,
    "format": format,
}
_REFLECTED = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift")
_METHODS: dict[str, Any] = {
    **{f"__{name}__": _unary(op) for name, op in _UNARY.items()},
    **{f"__{name}__": _binary(op) for name, op in _BINARY.items()},
    **{f"__r{name}__": _reflected(_BINARY[name]) for name in _REFLECTED},
    "__rdivmod__": _reflected(divmod),
    "__round__": lambda self, n=None: round(self._cp_real(), n),
}
for _name, _method in _METHODS.items():
    setattr(Slot, _name, _method)


def _attribute(self: Slot, name: str) -> Any:
    return getattr(self._cp_real(), name)


Slot.__getattr__ = _attribute  # type: ignore[attr-defined]


def derive(slot: Slot, step: str) -> Any:
    """Return a slot for `slot`'s value passed through the pure filter `step` (the value, when it cannot be)."""
    value = STEPS[step](slot._cp_value)
    if not slottable(value) or len(slot._cp_probe.slots) >= MAX_SLOTS:
        return STEPS[step](slot._cp_real())
    return slot._cp_probe.slot(slot._cp_path, value, slot._cp_steps + (step,), slot._cp_parts)


def joined(parts: Any) -> Slot | None:
    """Return a slot for text joined from slots and constants (`~`, a message's slots); None when it cannot
    be one (a part that is markup or not a plain value, or joined text too long to slot)."""
    pieces: list[str | Slot] = []
    probe = None
    for part in parts:
        if type(part) is Slot:
            probe = part._cp_probe
            if part._cp_parts and not part._cp_steps:  # joined text inside joined text: one level
                pieces.extend(part._cp_parts)
            else:
                pieces.append(part)
        elif getattr(part, "__html__", None) is not None:  # markup joins escaped: left to Jinja
            return None
        else:
            pieces.append(str(part))  # what joining does with a constant
    value = "".join(str(p._cp_value) if isinstance(p, Slot) else p for p in pieces)
    if probe is None or not slottable(value) or len(probe.slots) >= MAX_SLOTS:
        return None
    return probe.slot((), value, (), tuple(pieces))


Recipe = tuple[Any, ...]  # ("leaf", path, steps) or ("join", parts, steps): how a face's value is made


def recipe(slot: Slot) -> Recipe:
    """Return how to make, for any face, the value a slot stands for."""
    if slot._cp_parts:
        parts = tuple(recipe(p) if type(p) is Slot else p for p in slot._cp_parts)
        return ("join", parts, slot._cp_steps)
    return ("leaf", slot._cp_path, slot._cp_steps)


def evaluate(made: Recipe, context: Any) -> Any:
    """Return a face's value by a slot's recipe (raising KeyError, IndexError, TypeError… when it cannot be)."""
    kind, what, steps = made
    if kind == "join":
        value: Any = "".join(p if type(p) is str else str(evaluate(p, context)) for p in what)
    else:
        value = context
        for step in what:  # the leaf at its place in the face's context
            value = value[step]
    for step in steps:
        value = STEPS[step](value)
    return value
