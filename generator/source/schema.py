"""Schema layer: check loaded YAML against a JSON Schema and explain each failure in plain words."""

from __future__ import annotations

import difflib
import functools
import hashlib
import marshal
import re
import sys
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import fastjsonschema

from ..diagnostics import Report, did_you_mean
from ..project import cache
from .yamlsrc import Source, format_path

if TYPE_CHECKING:  # jsonschema explains failures only: imported when something fails
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "nothing",
}


@functools.cache
def _registry() -> Registry:
    """Load every schema (the core's and each ruleset's) so that they can `$ref` each other by `$id`."""
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    from . import yamlparse

    schemas = {}
    for _, text in _schema_files():
        # The core's and the rulesets' own schemas: code that cardpress runs, not user input (a test checks
        # every one against the metaschema).
        schema = yamlparse.load(text)
        schemas[schema["$id"]] = schema
    found = [(sid, DRAFT202012.create_resource(_extended(s, schemas))) for sid, s in schemas.items()]
    return Registry().with_resources(found)


def _extended(schema: dict[str, Any], schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Return `schema` with the keys of the schema it `x-extends` merged in, so one check sees the whole file.

    (JSON Schema's own `unevaluatedProperties` would do this, but the quick validator does not know it.)
    """
    base_id = schema.get("x-extends")
    if not base_id:
        return schema
    base = _extended(schemas[f"cardpress:{base_id}"], schemas)
    return {
        **schema,
        "required": list(dict.fromkeys([*base.get("required", []), *schema.get("required", [])])),
        "properties": {**base.get("properties", {}), **schema.get("properties", {})},
    }


@functools.cache
def contents(name: str) -> dict[str, Any]:
    """Return the core's schema `<name>`, as written (that file alone: loading every schema costs more)."""
    from . import yamlparse  # here: a rebuild of unchanged files loads no PyYAML

    text = resources.files("generator.source").joinpath("schemas", f"{name}.yaml").read_text(encoding="utf-8")
    found: dict[str, Any] = yamlparse.load(text)
    return found


@functools.cache
def load_schema(name: str) -> Draft202012Validator:
    """Return a compiled validator for the schema whose `$id` is `cardpress:<name>`."""
    from jsonschema import Draft202012Validator

    registry = _registry()
    schema = registry.contents(f"cardpress:{name}")
    return Draft202012Validator(schema, registry=registry)


@functools.cache
def _stamp() -> str:
    """Return what names the compiled validators of these schemas: fastjsonschema's version and every schema."""
    return hashlib.sha256(repr((fastjsonschema.VERSION, 3, _schema_texts())).encode()).hexdigest()[:16]


@functools.cache
def _fast(name: str) -> Callable[[Any], Any]:
    """Return a quick yes/no validator: the schema compiled to Python code, cached on disk as bytecode."""
    where = cache.folder("schemas")
    path = where / f"{name}-{_stamp()}.py" if where else None
    # The code object as well as the code: compiling the generated validators costs more than the check.
    compiled = path.with_suffix(f".{sys.implementation.cache_tag}.marshal") if path else None
    blob = cache.read(compiled) if compiled else None
    try:
        entry, code = marshal.loads(blob) if blob is not None else ("", None)
    except (EOFError, ValueError, TypeError):
        entry, code = "", None  # written by another Python: compile again
    if type(entry) is not str or type(code) is not CodeType:  # missing, or not what this code writes
        stored = cache.read(path) if path else None
        if stored is not None:
            text = stored.decode("utf-8")  # sealed with its digest: what we wrote, so valid UTF-8
        else:
            registry = _registry()
            handlers = {"cardpress": lambda uri: _absolute(registry.contents(uri.split("#")[0]), uri.split("#")[0])}
            text = fastjsonschema.compile_to_code(handlers["cardpress"](f"cardpress:{name}"), handlers=handlers)
            if path:
                cache.write(path, text.encode("utf-8"))
        entry = re.findall(r"^def (\w+)\(data", text, re.M)[0]  # the first function is the schema's own
        code = compile(text, f"<schema {name}>", "exec")
        if compiled:
            cache.write(compiled, marshal.dumps((entry, code)))
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # code we generated from our own schemas
    return cast("Callable[[Any], Any]", namespace[entry])


def _absolute(schema: Any, schema_id: str) -> Any:
    """Return `schema` with its local `$ref`s ("#/$defs/…") made absolute ("cardpress:x#/$defs/…").

    The quick validator resolves a local reference inside a schema it reached through another one against
    the first schema, so without this a deck's game.yaml (which uses deck-cards) could never be checked
    quickly and every build took the slow, explaining path.
    """
    if isinstance(schema, dict):
        return {
            k: (
                f"{schema_id}{v}"
                if k == "$ref" and isinstance(v, str) and v.startswith("#")
                else _absolute(v, schema_id)
            )
            for k, v in schema.items()
        }
    if isinstance(schema, list):
        return [_absolute(v, schema_id) for v in schema]
    return schema


@functools.cache
def _schema_files() -> tuple[tuple[str, str], ...]:
    """Return (file name, text) of every schema: the core's, then each registered ruleset's pack, by file name."""
    from .. import registry

    folders = [Path(str(resources.files("generator.source").joinpath("schemas")))]
    for registration in registry.registrations():
        own = registration.plugin.pack().schemas if registration.plugin is not None else None
        if own is not None:
            folders.append(own)
    files = {p.name: p for folder in folders if folder.is_dir() for p in folder.glob("*.yaml")}
    return tuple((name, files[name].read_text(encoding="utf-8")) for name in sorted(files))


def _schema_texts() -> tuple[str, ...]:
    return tuple(text for _, text in _schema_files())


def conforms(schema: str, data: Any) -> bool:
    """Return True if `data` follows the schema (quick, no explanation)."""
    try:
        _fast(schema)(data)
        return True
    except fastjsonschema.JsonSchemaException:
        return False


def check(source: Source, schema: str, report: Report, code_prefix: str = "S") -> bool:
    """Report every way `source.data` breaks the schema; return True when it conforms."""
    if conforms(schema, source.data):
        return True
    validator = load_schema(schema)
    explained: list[Finding] = []
    for error in sorted(validator.iter_errors(source.data), key=lambda e: list(map(str, e.absolute_path))):
        for leaf in _leaves(error):
            explained.extend(_explain(leaf))
    # A misspelt key shows up twice: as unknown, and as the key it should have been, missing.
    # Report it once, as the unknown key with its "did you mean" hint.
    misspelt = {(f.path[:-1], f.about) for f in explained if f.code == "003" and f.about}
    seen: set[tuple[Any, ...]] = set()
    for f in explained:
        if (f.code == "002" and (f.path, f.about) in misspelt) or (f.code, f.path, f.message) in seen:
            continue
        seen.add((f.code, f.path, f.message))
        report.error(
            f"{code_prefix}{f.code}",
            f.message,
            path=format_path(f.path),
            loc=source.loc(f.path, key=f.on_key),
            hint=f.hint,
        )
    return not seen


def describe(value: Any) -> str:
    """Describe a YAML value for a message: its kind and, when short, the value itself."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"whole number {value}"
    if isinstance(value, float):
        return f"number {value:g}"
    if isinstance(value, str):
        return f"string '{value}'" if len(value) <= 40 else "a long string"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """Descend into oneOf/anyOf to the error that best matches what the user wrote."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        # Prefer the branch whose type matched: its errors are about the user's actual intent.
        deepest = max(len(e.absolute_path) for e in error.context)
        if deepest > len(error.absolute_path):
            best = [e for e in error.context if len(e.absolute_path) == deepest]
            for e in best:
                yield from _leaves(e)
            return
    yield error


class Finding(NamedTuple):
    """One explained schema failure."""

    code: str
    path: tuple[Any, ...]
    message: str
    hint: str | None = None
    on_key: bool = False  # point at the key rather than its value
    about: str | None = None  # the missing key, or the key an unknown one was probably meant to be


def _explain(error: ValidationError) -> Iterator[Finding]:
    """Yield the findings for one schema failure."""
    path = tuple(error.absolute_path)
    value: Any = error.instance
    kind = error.validator
    limit: Any = error.validator_value
    custom_schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    custom = error.schema.get("x-message") if isinstance(error.schema, dict) else None
    if kind == "type":
        wanted = limit if isinstance(limit, list) else [limit]
        names = " or ".join(str(_TYPE_NAMES.get(t, t)) for t in wanted)
        yield Finding("001", path, f"expected {names}, got {describe(value)}")
    elif kind == "required":
        for name in limit:
            if isinstance(value, dict) and name not in value:
                yield Finding("002", path, f"missing required key '{name}'", about=name)
    elif kind == "additionalProperties" and isinstance(value, dict):
        known = set(custom_schema.get("properties", {}))
        patterns = custom_schema.get("patternProperties", {})
        for key in value:
            if key in known or any(re.search(p, str(key)) for p in patterns):
                continue
            close = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.6)
            hint = (
                f"did you mean '{close[0]}'?"
                if close
                else (f"allowed keys: {', '.join(sorted(known))}" if known else None)
            )
            yield Finding("003", path + (key,), f"unknown key '{key}'", hint, True, close[0] if close else None)
    elif kind == "enum":
        hint = did_you_mean(value, limit) if isinstance(value, str) else None
        allowed = ", ".join(map(str, limit))
        yield Finding("004", path, f"must be one of {allowed}; got {describe(value)}", hint)
    elif kind in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        sign = {"minimum": "≥", "exclusiveMinimum": ">", "maximum": "≤", "exclusiveMaximum": "<"}[kind]
        yield Finding("004", path, f"must be {sign} {limit}, got {value}")
    elif kind in ("minItems", "maxItems"):
        word = "at least" if kind == "minItems" else "at most"
        yield Finding("004", path, f"must have {word} {limit} item{'s' if limit != 1 else ''}, got {len(value)}")
    elif kind in ("minProperties", "maxProperties"):
        word = "at least" if kind == "minProperties" else "at most"
        yield Finding("004", path, f"must have {word} {limit} key{'s' if limit != 1 else ''}")
    elif kind in ("minLength", "maxLength"):
        word = "at least" if kind == "minLength" else "at most"
        yield Finding("004", path, f"must be {word} {limit} characters long")
    elif kind == "pattern":
        yield Finding("004", path, custom or f"'{value}' does not match the pattern {limit}")
    elif kind == "const":
        yield Finding("004", path, f"must be {limit!r}, got {describe(value)}")
    elif kind == "uniqueItems":
        yield Finding("004", path, "items must be unique")
    elif kind == "propertyNames":
        yield Finding("004", path, custom or "invalid key name", on_key=True)
    else:
        yield Finding("004", path, custom or error.message)
