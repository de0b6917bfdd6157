"""Find cardpress's plugins through entry points (rulesets here, export targets in export.target); the shipped ones too."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Generic, Protocol, TypeVar

from .contract import ENTRY_POINT_GROUP, Ruleset


class Named(Protocol):
    """A plugin: it says its own name, which must be the one it is registered under."""

    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


@dataclass(frozen=True)
class Registration(Generic[T]):
    """A plugin as found through its entry point: where it came from, and the object (or why it failed)."""

    name: str
    origin: str  # "module:attribute" of the entry point
    plugin: T | None = None
    problem: str = ""  # why the entry point could not be loaded


def found(group: str, kind: type[T]) -> tuple[Registration[T], ...]:
    """Return every plugin registered in `group`, by name; one that fails to import is kept with the reason."""
    seen: dict[str, Registration[T]] = {}
    for point in sorted(entry_points(group=group), key=lambda p: (p.name, p.value)):
        if point.name in seen:
            continue  # the same distribution seen twice on sys.path: the first one wins, as for imports
        try:
            obj = point.load()
            plugin = obj() if isinstance(obj, type) else obj
            if not isinstance(plugin, kind):
                raise TypeError(f"{point.value} is not a {kind.__module__}.{kind.__qualname__}")
            if plugin.name != point.name:
                raise ValueError(f"{point.value} calls itself '{plugin.name}', registered as '{point.name}'")
            seen[point.name] = Registration(point.name, point.value, plugin)
        except Exception as exc:  # a broken third-party package must not break cardpress
            seen[point.name] = Registration(point.name, point.value, problem=f"{type(exc).__name__}: {exc}")
    return tuple(seen.values())


@functools.cache
def registrations() -> tuple[Registration[Ruleset[Any]], ...]:
    """Return every registered ruleset by name."""
    return found(ENTRY_POINT_GROUP, Ruleset)  # type: ignore[type-abstract]  # an isinstance check, not a call


def names() -> list[str]:
    """Return the names of the rulesets that loaded."""
    return [r.name for r in registrations() if r.plugin is not None]


def get(name: str) -> Registration[Ruleset[Any]] | None:
    """Return the registration for `name` (loaded or not), or None if nothing registers it."""
    return next((r for r in registrations() if r.name == name), None)
