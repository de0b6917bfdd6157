"""The Jinja side of the layout templates: the sandboxed environment, its loader and its bytecode cache.

Loaded only when a template is parsed or rendered, so a rebuild whose faces are all kept never imports Jinja.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jinja2 import FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, TemplateNotFound, Undefined
from jinja2.bccache import Bucket

from ..i18n.catalogue import Catalogue
from ..project import cache
from ..source import safefile
from . import contrast, markup, sandbox, slots
from .sandbox import SandboxEnv
from .templatefiles import Unreadable, find_source


class TemplateRefused(TemplateNotFound):
    """A template file that exists but may not be read, as Jinja is told of it while rendering."""

    def __init__(self, name: str, unreadable: Unreadable):
        super().__init__(name, unreadable.refused.reason)
        self.filename = unreadable.filename
        self.refused = unreadable.refused


class _Loader(FileSystemLoader):
    """Load templates as `templatefiles.find_source` finds them: through the containment checks."""

    def __init__(self, searchpath: Sequence[str], roots: safefile.Roots):
        super().__init__(list(searchpath))
        self.roots = list(roots)

    def get_source(self, environment: Any, template: str) -> tuple[str, str, Any]:
        try:
            found = find_source(self.searchpath, self.roots, template)
        except Unreadable as exc:
            raise TemplateRefused(template, exc) from None
        if found is None:
            raise TemplateNotFound(template)
        contents, filename, mtime = found

        def uptodate() -> bool:
            try:
                return os.path.getmtime(filename) == mtime
            except OSError:
                return False

        return contents, filename, uptodate


def _quote(value: Any) -> str:
    """Quote any value as a YAML (JSON) scalar, so card text can never break the document."""
    if type(value) is slots.Slot:  # a probe: the marker each face's own value replaces
        return json.dumps(value._cp_marker(), ensure_ascii=False)
    if isinstance(value, Undefined):
        value._fail_with_undefined_error()  # name the missing variable, not a JSON error
    return json.dumps(value, ensure_ascii=False)


def _escape_markup(value: Any) -> Any:
    """Escape plain text for markup; a probe's slot passes through, escaped for each face."""
    if type(value) is slots.Slot:
        return slots.derive(value, "escape_markup")
    return markup.escape(value)


class _BytecodeCache(FileSystemBytecodeCache):
    """Jinja's bytecode cache through cardpress's guarded, sealed cache files: a torn, damaged or unwritable
    entry (a full disk) is only a miss."""

    def load_bytecode(self, bucket: Bucket) -> None:
        data = cache.read(Path(self._get_cache_filename(bucket)))
        if data is not None:
            try:
                bucket.load_bytecode(io.BytesIO(data))
            except Exception:  # written by another Jinja or Python: compile again
                bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        out = io.BytesIO()
        bucket.write_bytecode(out)
        cache.write(Path(self._get_cache_filename(bucket)), out.getvalue())


def environment(searchpath: Sequence[str], roots: safefile.Roots, words: Catalogue) -> SandboxEnv:
    """Return the sandboxed environment of the templates in `searchpath`, with cardpress's filters and `words`' gettext."""
    compiled = cache.folder("templates")
    pattern = f"cardpress-sandbox{sandbox.SANDBOX_VERSION}-%s.cache"
    env = SandboxEnv(
        loader=_Loader(searchpath, roots),
        bytecode_cache=_BytecodeCache(str(compiled), pattern) if compiled else None,
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["q"] = _quote
    env.filters["escape_markup"] = _escape_markup
    own = {
        "lighten": lambda c, t: contrast.mix(c, "#ffffff", t),
        "darken": lambda c, t: contrast.mix(c, "#000000", t),
        "mix": contrast.mix,
        "legible": contrast.legible,
        "decimal": words.decimal,  # 63.5, or 63,5 in French
    }
    for name, func in own.items():  # functions of real values: a probe's slots give theirs
        env.filters[name] = sandbox.resolving(func)

    # gettext's names, so Babel's Jinja extractor finds each printed label: _("machine"), with slots as
    # keywords (_("for {players} players", players=n)); pgettext("context", "…") tells two uses apart.
    def say(msgid: str, context: str, values: dict[str, Any]) -> Any:
        if any(type(v) is slots.Slot for v in values.values()):  # a probe: the message joined from its slots
            found = slots.joined(words.parts(msgid, context, **values))
            if found is not None:
                return found
            values = {name: slots.real(v) for name, v in values.items()}
        return words.form(msgid, context, **values)

    env.globals["_"] = env.globals["gettext"] = lambda msgid, **values: say(msgid, "", values)
    env.globals["pgettext"] = lambda context, msgid, **values: say(msgid, context, values)
    env.slot_aware.extend(env.globals[name] for name in ("_", "gettext", "pgettext"))
    return env
