"""Parse the plain option values cardpress's commands take (text, a whole number, a path, a choice) without pydantic.

Typer 0.29 checks every option value through a pydantic TypeAdapter: importing pydantic and building the
adapters cost about 200 million instructions, 5 % of a first build of the Pocket Foundry kit, before a
command does anything. `install` has each parameter of a plain type parse its value as Typer's own adapter
would, with Typer's own helpers; a value that does not parse the plain way (a misspelt choice, `--players
two`), and every parameter of any other type, goes Typer's way, so what a command is given and every
message are Typer's. Without Typer's runtime coercion (an older or a newer Typer) nothing is changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

_WHOLE = re.compile(r"[+-]?(?:0|[1-9][0-9]*)")  # what int() and pydantic read alike (no spaces, no _)


def install() -> None:
    """Have Typer's parameters of a plain type parse their values without pydantic (from here on in this process)."""
    try:
        from typer import _coercion, _param_types, core
    except ImportError:  # a Typer without pydantic coercion: nothing to spare
        return
    parameter = getattr(core, "_TyperParameter", None)
    base = getattr(_coercion, "RuntimeParam", None)
    if parameter is None or base is None or getattr(parameter, "_cardpress_plain", False):
        return
    given = parameter.get_runtime_param

    @dataclass(frozen=True)
    class Plain(base):  # type: ignore[misc, valid-type]
        """A plain parameter's parse; anything else is Typer's."""

        kind: str
        choices: tuple[Any, ...]
        descriptor: Any  # the parameter's type as Typer resolved it: its own coercion takes what this one does not

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if type(value) is str:
                if self.kind == "str":
                    return value
                if self.kind == "int" and _WHOLE.fullmatch(value):
                    return int(value)
                if self.kind == "path" and value:
                    return _param_types.coerce_cli_path(
                        Path(value), self.parameter_info, path_type=Path, param=param, ctx=ctx
                    )
                if self.kind == "choice":
                    case = self.parameter_info.case_sensitive
                    try:
                        return _param_types.coerce_cli_choice(value, choices=self.choices, case_sensitive=case, ctx=ctx)
                    except ValueError:
                        pass  # Typer says why, in its words
            return _coercion.build_runtime_param(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            kind = _kind(self.type_descriptor)
            if kind is not None:
                descriptor = self.type_descriptor
                choices = tuple(descriptor.annotation) if kind == "choice" else ()
                self._runtime_param = Plain(descriptor.parameter_info, descriptor.annotation, kind, choices, descriptor)
                return self._runtime_param
        return given(self)

    parameter.get_runtime_param = get_runtime_param
    parameter._cardpress_plain = True


def _kind(descriptor: Any) -> str | None:
    """Return which plain parse a parameter takes, or None when it is Typer's to parse."""
    info = descriptor.parameter_info
    if descriptor.file_annotation is not None or info.parser is not None or getattr(info, "click_type", None):
        return None
    if descriptor.is_list or descriptor.is_tuple:
        return None
    annotation = descriptor.annotation
    if annotation is bool:  # a flag's value is a bool already (Typer parses none), or None when it has none
        return "bool"
    if annotation is str:
        return "str"
    if annotation is int and info.min is None and info.max is None:
        return "int"
    if annotation is Path and getattr(info, "path_type", None) is None:
        return "path"
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "choice"
    return None
