"""Layout programs: each template rendered once per shape of its faces' data, every face's values bound in.

Faces of one template mostly differ only in the text they print. A program is the layout document one
probe render made with each value of the face's context standing as a slot (generator.layout.slots): the
places where a slot's marker landed are where each face's own value goes. A face whose value the template
did more with than quote (tested it, compared it, printed it unquoted) is structural there: programs are
kept per template by every structural value, so a face binds into a program only when the template would
have done exactly the same with it. Bound elements are checked as a parse checks them; anything a program
cannot vouch for (a probe that failed, a value that does not bind) is rendered for real, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Report
from . import document, slots
from .document import Element, LayoutDoc
from .slots import Path, Probe

MAX_FAILURES = 3  # probes of one template that may fail before failing ones may be no more than a quarter
MAX_PROGRAMS = 4096  # programs kept for one template; past this the memory starts again
Key = tuple[Any, ...]
Leaf = tuple[Path, Any]
SCALARS = frozenset((str, int, bool, float, type(None)))  # what a leaf may be
_UNSEEN: Any = object()  # no program made for a key yet


@dataclass(frozen=True)
class Program:
    """One probe's document and where each face's values go in it."""

    doc: LayoutDoc
    data: dict[str, Any]  # the probe's parsed document
    places: tuple[tuple[int, tuple[tuple[tuple[str | int, ...], int], ...]], ...]  # element -> (where in it, slot)
    slots: tuple[tuple[int, slots.Recipe], ...]  # each slot used, and how a face's value for it is made
    size: int  # characters the probe rendered
    written: tuple[int, ...]  # the slot of every marker in the rendered text, for the real text's size
    # elements whose slots the schema checks one by one, so only they need checking (document.free_check)
    quick: dict[int, tuple[tuple[str, int, Callable[[Any], bool]], ...]]
    built: dict[int, Element] = field(default_factory=dict)  # each quick element as a face's check built it


@dataclass
class Family:
    """The programs of one template, by the structural values of their faces."""

    structural: set[Path] = field(default_factory=set)
    programs: dict[Key, Program | None] = field(default_factory=dict)  # None: its faces are rendered for real
    probes: int = 0
    failures: int = 0


Render = Callable[[dict[str, Any], Report, Probe], str | None]  # a probe render of the template


class Programs:
    """The layout programs of one Templates object (one build of one game)."""

    def __init__(self, max_output: int) -> None:
        self.families: dict[str, Family] = {}
        self.max_output = max_output  # characters a face's rendered document may have
        self._parts: dict[int, tuple[Any, Family, int, Any]] = {}  # by id: a context entry's part of a key

    def lay_out(
        self,
        template: str,
        context: dict[str, Any],
        face: str,
        size: tuple[float, float],
        display: str,
        render: Render,
    ) -> LayoutDoc | None:
        """Return the face's document bound from its template's program, or None to render it for real."""
        family = self.families.get(template)
        if family is None:  # not setdefault: that would make a Family for every face
            family = self.families[template] = Family()
        if family.failures >= MAX_FAILURES and family.failures * 4 > family.probes:  # probing wastes renders
            return None
        key = self._key(context, family)
        if key is None:
            return None
        found = family.programs.get(key, _UNSEEN)  # one lookup: a key's hash is taken over all its leaves
        if found is _UNSEEN:
            leaves: list[Leaf] = []
            _flatten(context, (), leaves)
            program = self._probe(context, leaves, family, render, display, face, size)
            family.probes += 1
            if len(family.programs) >= MAX_PROGRAMS:
                family.programs.clear()
            stored = self._key(context, family)  # with the structural places it found
            if stored is not None:
                family.programs[stored] = program
            if program is None:
                family.failures += 1
                return None
            return bind(program, context, display, face, size, self.max_output)
        return bind(found, context, display, face, size, self.max_output) if found is not None else None

    def _key(self, context: dict[str, Any], family: Family) -> Key | None:
        """Return what a face's program is kept under: its shape, and the values of its structural places;
        None when a leaf cannot be part of a key. The part of a shared mapping (the game's, on every face) is
        worked out once: a build does not change its context while it lays faces out."""
        parts = []
        for name, value in context.items():
            if type(name) is not str:
                return None
            kind = type(value)
            if kind in SCALARS:  # a page's number, its label: one leaf, as _leaves_key tells it, no walk to find it
                path = (name,)
                parts.append((name, (_leaf(path, value, path in family.structural),)))
                continue
            shared = kind is dict or kind is list
            memo = self._parts.get(id(value)) if shared else None
            if memo is not None and memo[0] is value and memo[1] is family and memo[2] == len(family.structural):
                parts.append(memo[3])
                continue
            part = _flat_part(name, value, family.structural) if kind is dict else None
            if part is None:
                leaves: list[Leaf] = []
                if not _flatten(value, (name,), leaves):
                    return None
                part = (name, _leaves_key(leaves, family.structural))
            if shared:
                if len(self._parts) >= MAX_PROGRAMS * 4:
                    self._parts.clear()
                self._parts[id(value)] = (value, family, len(family.structural), part)  # kept: ids stay unique
            parts.append(part)
        return tuple(parts)

    def _probe(
        self,
        context: dict[str, Any],
        leaves: list[Leaf],
        family: Family,
        render: Render,
        display: str,
        face: str,
        size: tuple[float, float],
    ) -> Program | None:
        """Render the template once with slots for the face's values; None when the result cannot be a program."""
        probe = Probe()
        for path, value in leaves:
            if path not in family.structural and slots.slottable(value) and len(probe.slots) < slots.MAX_SLOTS:
                probe.slot(path, value)
        slotted = _with_slots(context, {s._cp_path: s for s in probe.slots}, ())
        report = Report()
        text = render(slotted, report, probe)
        family.structural |= probe.structural
        if text is None or report.items:
            return None
        found = document.parse_probe(text, display, face, size, _marked)
        return _program(*found, text, probe) if found is not None else None


def _flatten(value: Any, path: Path, out: list[Leaf]) -> bool:
    """Collect every leaf of a context with its place; False when a leaf cannot be part of a key."""
    kind = type(value)
    if kind is dict:
        for name, item in value.items():
            if type(name) is not str or not _flatten(item, path + (name,), out):
                return False
    elif kind is list:
        for index, item in enumerate(value):
            if not _flatten(item, path + (index,), out):
                return False
    elif kind in SCALARS:  # a float is keyed by its text: 0.0 and -0.0 differ
        out.append((path, value))
    else:
        return False
    return True


def _flat_part(name: str, value: dict[str, Any], structural: set[Path]) -> Key | None:
    """Return the part of a key for a mapping of text keys to plain values or to mappings of those (a card row
    and its art, most often), telling their leaves apart as `_leaves_key` does but without a path built for
    each; None for any other mapping."""
    items: list[Any] = []
    for k, v in value.items():
        kind = type(v)
        if type(k) is not str:
            return None
        if kind in SCALARS:
            items.append(_leaf(k, v, (name, k) in structural))
            continue
        if kind is not dict:
            return None
        inner = []  # one level down: a pair (name, its leaves), never three long as a leaf is
        for kk, vv in v.items():
            inner_kind = type(vv)
            if type(kk) is not str or inner_kind not in SCALARS:
                return None
            inner.append(_leaf(kk, vv, (name, k, kk) in structural))
        items.append((k, tuple(inner)))
    return (name, tuple(items))


def _leaves_key(leaves: list[Leaf], structural: set[Path]) -> Key:
    """Return the part of a key for some leaves: their places and types, and the values of structural places
    and of leaves no slot may stand for."""
    return tuple(_leaf(path, value, path in structural) for path, value in leaves)


def _leaf(label: Any, value: Any, structural: bool) -> tuple[Any, str, str | None]:
    """Return one leaf of a key: its place, its type, and its value where the place is structural or no slot
    may stand for the value (else None: a slot will)."""
    return (label, type(value).__name__, repr(value) if structural or not slots.slottable(value) else None)


def _with_slots(value: Any, slotted: dict[Path, slots.Slot], path: Path) -> Any:
    """Return a copy of the context with each slotted leaf replaced by its slot."""
    if type(value) is dict:
        return {name: _with_slots(item, slotted, path + (name,)) for name, item in value.items()}
    if type(value) is list:
        return [_with_slots(item, slotted, path + (index,)) for index, item in enumerate(value)]
    return slotted.get(path, value)


def _program(doc: LayoutDoc, data: dict[str, Any], text: str, probe: Probe) -> Program | None:
    """Find where the probe's markers landed; None when one is anywhere but a whole value inside an element."""
    written = []
    at = text.find(slots.MARK)
    while at >= 0:
        index = _marker_index(text[at : at + 3], probe)
        if index is None:
            return None
        written.append(index)
        at = text.find(slots.MARK, at + 3)
    if text.count(slots.END) != len(written):
        return None
    if any(_marked(v) or _marked(k) for k, v in data.items() if k != "elements"):
        return None
    places = []
    for index, item in enumerate(data["elements"]):
        found: list[tuple[tuple[str | int, ...], int]] = []
        if not _places(item, (), probe, found):
            return None
        if found:
            places.append((index, tuple(found)))
    used = sorted({i for _, found in places for _, i in found} | set(written))
    table = tuple((i, slots.recipe(probe.slots[i])) for i in used)
    return Program(doc, data, tuple(places), table, len(text), tuple(written), _quick(data, places))


def _quick(data: dict[str, Any], places: list[tuple[int, tuple[tuple[tuple[str | int, ...], int], ...]]]) -> Any:
    """Return the elements whose every slot is a property the schema checks by itself, with those checks."""
    quick = {}
    for index, found in places:
        item = data["elements"][index]
        kind = next(iter(item)) if isinstance(item, dict) and len(item) == 1 else None
        if not isinstance(kind, str):  # not an element at all: the schema says so when a face binds
            continue
        checks = [
            (w[1], i, document.free_check(kind, str(w[1]))) if len(w) == 2 and w[0] == kind else None for w, i in found
        ]
        if all(c is not None and c[2] is not None for c in checks):
            quick[index] = tuple(checks)
    return quick


def _marker_index(text: str, probe: Probe) -> int | None:
    """Return the slot a marker names, or None when `text` is not a marker of this probe."""
    if len(text) != 3 or text[0] != slots.MARK or text[2] != slots.END:
        return None
    index = ord(text[1]) - slots.FIRST
    return index if 0 <= index < len(probe.slots) else None


def _marked(value: Any) -> bool:
    """Return True when a marker is anywhere in `value` (its keys included)."""
    if type(value) is str:
        return slots.MARK in value or slots.END in value
    if type(value) is dict:
        return any(_marked(k) or _marked(v) for k, v in value.items())
    if type(value) is list:
        return any(_marked(v) for v in value)
    return False


def _places(
    value: Any, where: tuple[str | int, ...], probe: Probe, found: list[tuple[tuple[str | int, ...], int]]
) -> bool:
    """Collect the whole-value markers in an element; False when a marker is part of a value or a key."""
    if type(value) is str:
        if slots.MARK not in value and slots.END not in value:
            return True
        index = _marker_index(value, probe)
        if index is None:
            return False
        found.append((where, index))
        return True
    if type(value) is dict:
        return all(not _marked(k) and _places(v, where + (k,), probe, found) for k, v in value.items())
    if type(value) is list:
        return all(_places(v, where + (i,), probe, found) for i, v in enumerate(value))
    return True


def bind(
    program: Program, context: dict[str, Any], display: str, face: str, size: tuple[float, float], max_output: int
) -> LayoutDoc | None:
    """Return the program's document with a face's values in its slots; None when they do not bind."""
    bound: dict[int, Any] = {}
    for index, made in program.slots:
        try:
            value = slots.evaluate(made, context)
        except (KeyError, IndexError, AttributeError, TypeError, ValueError):
            return None
        if (made[0] != "leaf" or made[2]) and not slots.slottable(value):  # a leaf's own was, for its key
            return None
        if document.bad_number(value):
            return None
        bound[index] = value
    extra = sum(2 * len(str(bound[i])) + 2 - slots.MARKER_SIZE for i in program.written)  # at most (escapes)
    if program.size + extra > max_output:
        written = sum(slots.quoted_size(bound[i]) - slots.MARKER_SIZE for i in program.written)
        if program.size + written > max_output:
            return None
    items, quick = {}, {}
    for index, found in program.places:
        checks, known = program.quick.get(index), program.built.get(index)
        if checks is not None and known is not None and all(check(bound[i]) for _, i, check in checks):
            props = {**known.props}
            for key, i, _ in checks:
                props[key] = bound[i]
            quick[index] = Element(known.kind, props, known.path, known.children)
        else:
            items[index] = _filled(program.data["elements"][index], found, bound)
    if items:
        doc = document.replace_elements(program.doc, display, face, program.data, items)
        if doc is None:
            return None
        for index in items.keys() & program.quick.keys():
            program.built[index] = doc.elements[index]
        elements = list(doc.elements)
    else:
        elements = list(program.doc.elements)
    for index, element in quick.items():
        elements[index] = element
    return LayoutDoc(display, face, program.doc.width, program.doc.height, program.doc.bleed, tuple(elements))


def _filled(item: Any, found: tuple[tuple[tuple[str | int, ...], int], ...], bound: dict[int, Any]) -> Any:
    """Return a copy of an element's data with each slot's value at its place."""
    copy = _copied(item)
    for where, index in found:
        holder = copy
        for step in where[:-1]:
            holder = holder[step]
        holder[where[-1]] = bound[index]
    return copy


def _copied(value: Any) -> Any:
    if type(value) is dict:
        return {k: _copied(v) for k, v in value.items()}
    if type(value) is list:
        return [_copied(v) for v in value]
    return value
