"""Command-line mistakes (an unknown option, a value an option does not take) said as cardpress diagnostics.

Typer checks option values through pydantic, whose words ("Value error, …", "Input should be a valid
integer, unable to parse string as an integer") are not ours: each mistake becomes one U010 error that
names the option and the value, with a did-you-mean where one fits. The exit code stays 2 (a usage error).
"""

from __future__ import annotations

import enum
import re
import typing
from typing import Any

from ..diagnostics import Report, did_you_mean

NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
_INVALID = re.compile(r"^Invalid value for '([^']+)': ")


def report(exc: Any) -> Report:
    """Return the diagnostic for one of click's usage errors (NoSuchOption, BadParameter, UsageError, …)."""
    said = Report()
    message, hint = _said(exc)
    context = getattr(exc, "ctx", None)
    if hint is None and context is not None:
        names = []  # the sub-commands, not the program's name (`python -m …` when run so)
        while context.parent is not None:
            names.append(context.info_name)
            context = context.parent
        hint = f"see `{' '.join(['cardpress', *reversed(names)])} --help`"
    said.error("U010", message, hint=hint)
    return said


def _said(exc: Any) -> tuple[str, str | None]:
    kind = type(exc).__name__
    if kind == "NoSuchOption":
        name = str(exc.option_name)
        return f"unknown option {name}", did_you_mean(name, exc.possibilities or ())
    param = getattr(exc, "param", None)
    if kind == "BadParameter" and param is not None:
        option = (getattr(param, "opts", None) or [str(param.name)])[0]
        cause = exc.__cause__
        listed = getattr(cause, "errors", None)  # pydantic's ValidationError, when typer checked the value with it
        errors: list[dict[str, Any]] = [dict(e) for e in listed()] if callable(listed) else []
        if errors:
            return _value(option, errors[0], _annotation(param))
        return f"{option}: {_INVALID.sub('', exc.format_message()).rstrip('.')}", None
    text = exc.format_message()
    command = _COMMAND.match(text)
    if command:
        return f"unknown command '{command[1]}'", f"did you mean '{command[2]}'?" if command[2] else None
    needs = _NEEDS.match(text)
    if needs:
        return f"{needs[1]} needs a value", None
    return text[:1].lower() + text[1:].rstrip("."), None


_COMMAND = re.compile(r"^No such command '([^']*)'\.(?: Did you mean '([^']*)'\?)?")
_NEEDS = re.compile(r"^Option '([^']+)' requires an argument")
_BOUNDS = {"greater_than_equal": ("ge", "at least"), "less_than_equal": ("le", "at most"),
           "greater_than": ("gt", "more than"), "less_than": ("lt", "less than")}  # fmt: skip


def _value(option: str, error: dict[str, Any], annotation: Any) -> tuple[str, str | None]:
    """Return what is wrong with the value pydantic refused, in our words."""
    value = str(error.get("input", ""))
    choices = _choices(annotation)
    if choices:
        listed = ", ".join(choices)
        return f"{option}: '{value}' is not one of {listed}", did_you_mean(value.lower(), choices)
    if error.get("type", "").startswith("int_"):
        word = value.strip().lower()
        hint = f"did you mean '{NUMBERS.index(word)}'?" if word in NUMBERS else "give a whole number, like 3"
        return f"{option}: '{value}' is not a whole number", hint
    if error.get("type", "").startswith("float_"):
        return f"{option}: '{value}' is not a number", "give a number, like 2.5"
    if error.get("type") in _BOUNDS:
        key, words = _BOUNDS[error["type"]]
        return f"{option} must be {words} {error.get('ctx', {}).get(key)}, not {value}", None
    reason = error.get("ctx", {}).get("error") or error.get("msg", "")
    return f"{option}: {str(reason).removeprefix('Value error, ').rstrip('.')}", None


def _annotation(param: Any) -> Any:
    runtime = getattr(param, "get_runtime_param", lambda: None)()  # typer's own parameters carry the annotation
    return getattr(runtime, "annotation", None)


def _choices(annotation: Any) -> list[str]:
    """Return the values an Enum option (or a list or Optional of one) takes, else []."""
    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, enum.Enum):
            return [str(member.value) for member in candidate]
    return []
