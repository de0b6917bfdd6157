"""Read the shared header of game.yaml (title, players, credits, art policy) once, for every ruleset."""

from __future__ import annotations

from typing import Any

from ..contract import ART_POLICIES, DEFAULT_ART_POLICY, Header
from ..diagnostics import Report
from .yamlsrc import Source

RULES_PLACES = (
    "end",
    "after-cover",
    "none",
)  # where `rules_pages.place` may put the rules pages; the first is the default


def read_header(source: Source, report: Report, based_on: str = "") -> Header:
    """Return the header game.yaml declares; fields the schema refused fall back to harmless defaults.

    The schema layer has already reported what is wrong with these keys; this only adds the one check a
    schema cannot make (the default player count must be a supported one). `based_on` is what a fan edition
    is based on when its game.yaml does not say (read from its base).
    """
    data: dict[str, Any] = source.data if isinstance(source.data, dict) else {}
    players: dict[str, Any] = data["players"] if isinstance(data.get("players"), dict) else {}
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
    rules: dict[str, Any] = data["rules_pages"] if isinstance(data.get("rules_pages"), dict) else {}
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
        extends=_text(data.get("extends")),
        version=_text(data.get("version")) or (str(data["version"]) if _number(data.get("version")) else ""),
        authors=_names(data.get("authors")),
        licence=_text(data.get("licence")),
        based_on=(_text(data.get("based_on")) or based_on) if data.get("extends") else "",
        rules_place=rules["place"] if rules.get("place") in RULES_PLACES else RULES_PLACES[0],
        rules_booklet=rules.get("booklet") is True,
        sheets="per-deck" if data.get("sheets") == "per-deck" else "shared",
        language=_text(data.get("language")),
    )


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _names(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(x for x in _list(value) if isinstance(x, str))


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
