"""Read the shared header of game.yaml (title, players, credits, art policy) once, for every ruleset."""

from __future__ import annotations

from typing import Any

from .contract import ART_POLICIES, DEFAULT_ART_POLICY, Header
from .diagnostics import Report
from .yamlsrc import Source


def read_header(source: Source, report: Report) -> Header:
    """Return the header game.yaml declares; fields the schema refused fall back to harmless defaults.

    The schema layer has already reported what is wrong with these keys; this only adds the one check a
    schema cannot make (the default player count must be a supported one).
    """
    data: dict[str, Any] = source.data if isinstance(source.data, dict) else {}
    players = data.get("players") if isinstance(data.get("players"), dict) else {}
    supported = tuple(sorted(n for n in _list(players.get("supported")) if isinstance(n, int)))
    default = players.get("default")
    if isinstance(default, int) and supported and default not in supported:
        path = ("players", "default")
        report.error(
            "S004",
            f"default player count {default} is not in supported {list(supported)}",
            path="players.default",
            loc=source.loc(path),
        )
    credits = data.get("credits", ())
    return Header(
        ruleset=_text(data.get("ruleset")),
        title=_text(data.get("title")),
        players=supported or (1,),
        default_players=default if isinstance(default, int) and default in supported else max(supported or (1,)),
        tagline=_text(data.get("tagline")),
        publisher=_text(data.get("publisher")),
        edition=_text(data.get("edition")),
        credits=(credits,) if isinstance(credits, str) else tuple(c for c in _list(credits) if isinstance(c, str)),
        missing_art=data["missing_art"] if data.get("missing_art") in ART_POLICIES else DEFAULT_ART_POLICY,
    )


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []
