"""Find the rulesets installed under the `cardpress.rulesets` entry-point group; the shipped games register there too."""

from __future__ import annotations

import functools
from importlib.metadata import entry_points

from .contract import ENTRY_POINT_GROUP, Registration, Ruleset


@functools.cache
def registrations() -> tuple[Registration, ...]:
    """Return every registered ruleset by name; one that fails to import is kept with the reason."""
    found: dict[str, Registration] = {}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: (p.name, p.value)):
        if point.name in found:
            continue  # the same distribution seen twice on sys.path: the first one wins, as for imports
        try:
            obj = point.load()
            ruleset = obj() if isinstance(obj, type) else obj
            if not isinstance(ruleset, Ruleset):
                raise TypeError(f"{point.value} is not a cardpress.contract.Ruleset")
            if ruleset.name != point.name:
                raise ValueError(f"{point.value} calls itself '{ruleset.name}', registered as '{point.name}'")
            found[point.name] = Registration(point.name, point.value, ruleset)
        except Exception as exc:  # a broken third-party package must not break cardpress
            found[point.name] = Registration(point.name, point.value, problem=f"{type(exc).__name__}: {exc}")
    return tuple(found.values())


def names() -> list[str]:
    """Return the names of the rulesets that loaded."""
    return [r.name for r in registrations() if r.ruleset is not None]


def get(name: str) -> Registration | None:
    """Return the registration for `name` (loaded or not), or None if nothing registers it."""
    return next((r for r in registrations() if r.name == name), None)
