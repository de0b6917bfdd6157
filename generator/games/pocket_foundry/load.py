"""Read Pocket Foundry's card files: schema, then references between files, then the model."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ...contract import Header
from ...sdk import Catalogue, GameDir, Report, did_you_mean, format_path
from .model import Effect, Machine, PocketFoundry, Resource, Rules


def load(game: GameDir, header: Header, report: Report, icons: Collection[str]) -> PocketFoundry | None:
    """Load the game (game.yaml is already loaded and checked); report every problem, None on any error."""
    g = game.sources["game.yaml"]
    m = game.load("machines.yaml", "pocket-foundry-machines", report)
    c = game.load("components.yaml", "pocket-foundry-components", report)
    _check_references(game, g.data, m.data, report, icons)
    if not report.ok():
        return None
    return _build(header, g.data, m.data, c.data, game.catalogue)


def _dict(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _check_references(game: GameDir, g: Any, m: Any, report: Report, icons: Collection[str]) -> None:
    """Check what one file says about another; tolerate shapes the schema already rejected."""
    gsrc, msrc = game.sources["game.yaml"], game.sources["machines.yaml"]
    resources = set(_dict(_dict(_dict(g).get("rules")).get("resources")))

    machines = [x for x in _list(_dict(m).get("machines")) if isinstance(x, dict)]
    starter = _dict(_dict(m).get("starter"))
    entries: list[tuple[tuple[Any, ...], Any]] = [
        (("machines", i), x) for i, x in enumerate(_list(_dict(m).get("machines"))) if isinstance(x, dict)
    ]
    if starter:
        entries.append((("starter",), starter))

    seen_ids: dict[str, tuple[Any, ...]] = {}  # casefolded id -> the key path it is first written at
    seen_names: dict[str, tuple[Any, ...]] = {}
    for path, entry in entries:
        for key, seen in (("id", seen_ids), ("name", seen_names)):
            value = entry.get(key)
            if isinstance(value, str):
                if value.casefold() in seen:
                    report.error(
                        "S006",
                        f"{key} '{value}' is used twice (first at {format_path(seen[value.casefold()])})",
                        path=format_path(path + (key,)),
                        loc=msrc.loc(path + (key,)),
                    )
                seen.setdefault(value.casefold(), path)
        glyph = entry.get("glyph")
        if isinstance(glyph, str) and icons and glyph not in icons:
            report.error(
                "S005",
                f"unknown glyph '{glyph}'",
                path=format_path(path + ("glyph",)),
                loc=msrc.loc(path + ("glyph",)),
                hint=did_you_mean(glyph, icons) or "glyphs are the icons defined in layouts/*/icons.yaml",
            )
        spends = [("build_cost",), ("run", "pay"), ("run", "gain")]
        for sub in spends:
            amounts: Any = entry
            for part in sub:
                amounts = _dict(amounts).get(part)
            for rid in _dict(amounts):
                if resources and rid not in resources:
                    where = path + sub + (rid,)
                    report.error(
                        "S005",
                        f"unknown resource '{rid}'",
                        path=format_path(where),
                        loc=msrc.loc(where, key=True),
                        hint=did_you_mean(rid, resources) or f"resources: {', '.join(sorted(resources))}",
                    )

    starter_ref = _dict(_dict(g).get("rules")).get("starter")
    starter_id = starter.get("id")
    if isinstance(starter_ref, str) and isinstance(starter_id, str) and starter_ref != starter_id:
        known = [starter_id] + [x["id"] for x in machines if isinstance(x.get("id"), str)]
        path = ("rules", "starter")
        which = "a market machine, not the starter" if starter_ref in known else "unknown machine"
        report.error(
            "S005",
            f"{which} '{starter_ref}'",
            path=format_path(path),
            loc=gsrc.loc(path),
            hint=did_you_mean(starter_ref, [starter_id]) or f"the starter in machines.yaml is '{starter_id}'",
        )


def _build(header: Header, g: dict[str, Any], m: dict[str, Any], c: dict[str, Any], words: Catalogue) -> PocketFoundry:
    """Turn checked data into the model."""
    rules_data = g["rules"]
    resources = tuple(
        Resource(rid, r["start"], r.get("cap"), r["singular"], r["plural"], r["label"], r["icon"], words)
        for rid, r in rules_data["resources"].items()
    )
    rules = Rules(
        resources,
        rules_data["slots"],
        rules_data["starter"],
        rules_data["market_size"],
        rules_data["laps"],
        rules_data["reshuffle"],
        words,
    )

    def machine(data: dict[str, Any], index: int, copies: int) -> Machine:
        run = data["run"]
        return Machine(
            id=data["id"],
            name=data["name"],
            copies=copies,
            build_cost=rules.order(data.get("build_cost", {})),
            run=Effect(rules.order(run.get("pay", {})), rules.order(run["gain"])),
            colour=data["colour"],
            glyph=data["glyph"],
            index=index,
            art=data.get("art"),
            remind_cap=data.get("remind_cap", False),
            build_text=data.get("text", {}).get("build_cost"),
            run_text=data.get("text", {}).get("run"),
        )

    machines = tuple(machine(x, i, x["copies"]) for i, x in enumerate(m["machines"]))
    return PocketFoundry(
        title=header.title,
        tagline=header.tagline,
        publisher=header.publisher,
        edition=header.edition,
        players=header.players,
        default_players=header.default_players,
        rules=rules,
        reminder=m["reminder"],
        machines=machines,
        starter=machine(m["starter"], -1, 1),
        mat_name=c["mat"]["name"],
        lap_record_name=c["lap_record"]["name"],
        marker_name=c["marker"]["name"],
        style=dict(g.get("style", {})),
    )
