"""Edits: values set in a game's card files in memory, after parsing and before the schema and rules see them.

A sweep (or any caller) loads a game through the `Pipeline` with edits; each loaded file gets its edits
applied as soon as it is parsed (or merged, for an edition), so the game's own schema, references and rules
check the edited data exactly as if the file had said it. A problem the edit causes is reported at the
edited value's place in the file, and says which edit put the value there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic, Report
from .yamlsrc import KeyPath, Source, format_path


@dataclass(frozen=True)
class Edit:
    """Set the value at `path` in the card file `file` (relative to the game folder) to `value`."""

    file: str
    path: KeyPath
    value: Any
    origin: str = ""  # what asked for it, for messages: "--vary cards.ticket-stamp.points=4"

    def describe(self) -> str:
        """Return `machines.yaml: machines[3].run.gain.points = 4`."""
        return f"{self.file}: {format_path(self.path)} = {self.value!r}"


Edits = Mapping[str, Sequence[Edit]]  # file name -> its edits


def by_file(edits: Iterable[Edit]) -> dict[str, list[Edit]]:
    """Group edits by the file they change."""
    out: dict[str, list[Edit]] = {}
    for edit in edits:
        out.setdefault(edit.file, []).append(edit)
    return out


def apply(source: Source, edits: Sequence[Edit], report: Report) -> None:
    """Set each edit's value in `source.data`; an edit whose place no longer exists is reported (U018)."""
    for edit in edits:
        parent: Any = source.data
        for part in edit.path[:-1]:
            parent = _child(parent, part)
        last = edit.path[-1] if edit.path else None
        if last is None or _child(parent, last) is _MISSING:
            report.error(
                "U018",
                f"cannot set {format_path(edit.path)}: {source.display} has no such value",
                path=format_path(edit.path),
                loc=source.loc(edit.path),
                hint=f"set by {edit.origin}" if edit.origin else None,
            )
            continue
        parent[last] = edit.value


def blame(diagnostics: Iterable[Diagnostic], edits: Edits) -> list[Diagnostic]:
    """Return the diagnostics, each one about an edited value (or inside one) saying which edit set it."""
    out = []
    for d in diagnostics:
        for edit in (e for es in edits.values() for e in es):
            shown = format_path(edit.path)
            if d.loc is not None and d.loc.file.endswith("/" + edit.file) and _within(d.path, shown):
                note = f"the value was set to {edit.value!r} by {edit.origin or 'an edit'}"
                d = Diagnostic(d.severity, d.code, d.message, d.path, d.loc, f"{note}; {d.hint}" if d.hint else note)
                break
        out.append(d)
    return out


def _within(path: str, edited: str) -> bool:
    return bool(path) and (path == edited or path.startswith(edited + ".") or path.startswith(edited + "["))


_MISSING = object()


def _child(parent: Any, key: Any) -> Any:
    if isinstance(parent, dict):
        return parent.get(key, _MISSING)
    if isinstance(parent, list) and isinstance(key, int) and 0 <= key < len(parent):
        return parent[key]
    return _MISSING
