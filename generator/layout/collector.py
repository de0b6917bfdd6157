"""The cycle collector during a build: off, since the faces a build lays out form no reference cycles, while
whatever a render of a project's template leaves in cycles (a namespace that holds itself) is collected at once."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

_OFF = [False]  # True while `off()` runs


@contextlib.contextmanager
def off() -> Iterator[None]:
    """Run with the collector off: it would only rescan faces that live until their PDFs are written
    (tests/test_reference_cycles.py holds that they form no cycles)."""
    enabled, outer = gc.isenabled(), _OFF[0]
    _OFF[0] = True
    gc.disable()
    try:
        yield
    finally:
        _OFF[0] = outer
        # What ran goes to the oldest generation unscanned (freeze, then unfreeze): enabled again, the
        # collector would otherwise scan all of it at the next allocation.
        gc.freeze()
        gc.unfreeze()
        if enabled:
            gc.enable()


@contextlib.contextmanager
def contained() -> Iterator[None]:
    """While the collector is `off`, collect the cycles the code inside leaves (a template's, which a stranger
    may write to leave millions): everything older is set aside first, so only what it made is scanned."""
    if not _OFF[0]:
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.collect(0)
