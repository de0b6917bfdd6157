"""The command-line reference page, read from the Typer app itself: every command, argument, option and example."""

from __future__ import annotations

import inspect
import types
import typing
from enum import Enum
from pathlib import Path
from typing import Any

import typer
import typer.main

from .. import registry as rulesets
from ..cli.main import app, commands
from ..cli.rules import declared_app
from ..contract import Capability
from ..export import target as targets
from .markdown import banner, cell, prose, table
from .shipped import shipped


def page() -> str:
    """Return docs/reference/cli.md."""
    group = typer.main.get_command(app)
    every = commands()
    visible = {name: c for name, c in every.items() if not c.hidden}
    aliases = {
        name: alias
        for alias, c in every.items()
        if c.hidden
        for name, shown in visible.items()
        if inspect.unwrap(shown.callback) is inspect.unwrap(c.callback)
    }
    parts = [
        banner("the Typer app in `generator/cli/` and the examples in `generator/cli/examples.py`"),
        "# Command-line reference\n",
        "```\ncardpress [--version] [--help] COMMAND [ARGS]...\n```\n",
        f"{_paragraphs(group.help)}\n",
        "Every command takes `--help`, which prints the options below and ends with the same examples. "
        "Exit codes: 0 ok, 1 invalid input or failed checks, 2 a usage error, 130 interrupted (Ctrl-C), "
        "70 an internal error (a bug in cardpress: please report it).\n",
        *_examples(group.epilog),
        "## Commands\n",
        table(
            ["Command", "What it does"],
            [[f"[`{name}`](#{name})", _summary(c)] for name, c in visible.items()],
        ),
    ]
    for name, command in visible.items():
        parts.append(_command(name, command, aliases.get(name)))
    return "\n".join(parts)


def _command(name: str, command: Any, alias: str | None) -> str:
    """Return the section of one command: usage, what it does, its arguments and options, its examples."""
    parts = [f"## {name}\n"]
    if alias:
        parts.append(f"Also `cardpress {alias}`.\n")
    parts.append(f"```\n{_usage(f'cardpress {name}', command)}\n```\n")
    parts.append(f"{_paragraphs(command.help)}\n")
    parts.append(_params(command))
    parts.extend(_examples(command.epilog))
    declared = _declared(name)
    for ruleset, sub in declared:
        parts.append(f"### {name} for {ruleset} games\n")
        parts.append(f"```\n{_usage(f'cardpress {name} GAME', sub)}\n```\n")
        parts.append(f"{_paragraphs(sub.help)}\n")
        parts.append(_params(sub))
        parts.extend(_examples(sub.epilog))
    return "\n".join(parts)


def _declared(name: str) -> list[tuple[str, Any]]:
    """Return (ruleset, click command) for each shipped ruleset that declares the game command NAME."""
    found = []
    for registration in shipped(rulesets.registrations()):
        ruleset = registration.plugin
        if ruleset is None or not ruleset.offers(Capability.COMMANDS):
            continue
        for declared in ruleset.commands():
            if declared.name == name:
                sub = typer.main.get_command(declared_app(name, declared.run, None))
                found.append((ruleset.name, sub))
    return found


def _usage(prog: str, command: Any) -> str:
    """Return a usage line: the program, [OPTIONS], then each argument (in brackets when it may be left out)."""
    pieces = [prog, "[OPTIONS]"]
    for param in _shown(command):
        if param.param_type_name != "argument":
            continue
        word = param.name.upper() + ("..." if param.nargs == -1 else "")
        pieces.append(word if param.required else f"[{word}]")
    return " ".join(pieces)


def _params(command: Any) -> str:
    """Return the tables of a command's arguments and of its options."""
    hints = _annotations(command.callback)
    arguments, options = [], []
    for param in _shown(command):
        kind, repeatable = _kind(hints.get(param.name, str))
        info = _declaration(command.callback, param.name)
        if param.param_type_name == "argument":
            kind += (", one or more" if param.required else ", any number") if param.nargs == -1 else ""
            arguments.append([f"`{param.name.upper()}`", kind, _default(param), prose(param.help or "")])
            continue
        names = ", ".join(f"`{o}`" for o in [*param.opts, *param.secondary_opts])
        if kind != "flag":
            kind += _range(info) + (", repeatable" if repeatable or param.multiple else "")
        options.append([names, kind, _default(param), prose(param.help or "")])
    options.append(["`--help`", "flag", "", "Print the command's help and examples, then exit."])
    parts = []
    if arguments:
        parts.append(table(["Argument", "Type", "Default", "Description"], arguments))
    parts.append(table(["Option", "Type", "Default", "Description"], options))
    return "\n".join(parts)


def _shown(command: Any) -> list[Any]:
    """Return the parameters a user can give (Typer's context parameter and hidden ones left out)."""
    return [p for p in command.params if not getattr(p, "hidden", False)]


def _annotations(callback: Any) -> dict[str, Any]:
    """Return {parameter: annotation} of a command's function, its string annotations evaluated."""
    if callback is None:
        return {}
    return {name: p.annotation for name, p in inspect.signature(callback, eval_str=True).parameters.items()}


def _declaration(callback: Any, name: str) -> Any:
    """Return the typer.Option/typer.Argument a parameter was declared with (None when it has none)."""
    if callback is None:
        return None
    parameter = inspect.signature(callback, eval_str=True).parameters.get(name)
    return parameter.default if parameter is not None else None


def _kind(annotation: Any) -> tuple[str, bool]:
    """Return what a parameter takes, in words, and whether it is a list (repeatable)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _kind(inner[0])
    if origin is list:
        return _kind(typing.get_args(annotation)[0])[0], True
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        ours = [m.value for m in annotation if m.value not in _foreign_targets()]  # `--to` lists what is installed
        return "one of " + ", ".join(f"`{value}`" for value in ours), False
    names = {bool: "flag", int: "integer", float: "number", str: "text", Path: "path"}
    return names.get(annotation, "text"), False


def _foreign_targets() -> set[str]:
    """Return the names of installed export targets that cardpress does not ship (the manual leaves them out)."""
    return {r.name for r in targets.registrations()} - {r.name for r in shipped(targets.registrations())}


def _range(info: Any) -> str:
    """Return ' from A to B' (or ' ≥ A', ' ≤ B') for a number option declared with min/max."""
    low, high = getattr(info, "min", None), getattr(info, "max", None)
    if low is not None and high is not None:
        return f", {low:,}–{high:,}"
    if low is not None:
        return f", ≥ {low:,}"
    if high is not None:
        return f", ≤ {high:,}"
    return ""


def _default(param: Any) -> str:
    """Return the default a user sees, or '' when there is none worth saying (no value, off, or hidden)."""
    if param.required:
        return "required"
    value = param.default
    if getattr(param, "show_default", True) is False or value is None or value is False or callable(value):
        return ""
    if isinstance(value, (list, tuple)) and not value:
        return ""
    if value is True:
        return "on"
    if isinstance(value, Enum):
        value = value.value
    return f"`{value}`"


def _summary(command: Any) -> str:
    """Return a command's one-line summary: its short help, or the first sentence of its help."""
    if command.short_help:
        return prose(str(command.short_help))
    first = _paragraphs(command.help).split("\n\n")[0]
    return cell(first)


def _paragraphs(text: str | None) -> str:
    """Return help text as Markdown paragraphs (click's `\\b` markers and `Example:` lines, shown apart, left out)."""
    paragraphs = inspect.cleandoc(text or "").replace("\b\n", "").split("\n\n")
    kept = [p for p in paragraphs if p.strip() and not p.strip().startswith("Example:")]
    return "\n\n".join(prose(" ".join(p.split())) for p in kept)


def _examples(epilog: str | None) -> list[str]:
    """Return the examples block of a command's epilog as a shell code block (nothing when it has none)."""
    lines = [line.strip() for line in (epilog or "").splitlines()]
    shown = [line for line in lines if line and line not in ("Examples:", "\b")]
    if not shown:
        return []
    return ["Examples:\n", "```sh\n" + "\n".join(shown) + "\n```\n"]
