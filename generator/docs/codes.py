"""The diagnostic-code page, made from the code registry: the generic codes by layer, then each ruleset's own."""

from __future__ import annotations

from .. import codes
from .. import registry as rulesets
from .markdown import banner, table
from .shipped import shipped


def page() -> str:
    """Return docs/reference/codes.md."""
    parts = [
        banner("the code registry, `generator/codes.py`, and each ruleset's `codes()`"),
        "# Diagnostic codes\n",
        "Every problem cardpress reports carries one of these codes, compiler-style: "
        "`file:line:col: error[CODE] key.path: message`, then the line itself, a caret under the place and a "
        "`hint:` when there is one. `cardpress codes` lists them all and `cardpress codes CODE` explains one. "
        "A test fails when the source reports a code the registry lacks, when the registry keeps a code nothing "
        "reports, or when this page differs from the registry.\n",
        "## Codes every game can get\n",
        table(["Code", "Layer", "Meaning"], [[c.code, c.layer, c.meaning] for c in codes.GENERIC.values()]),
    ]
    for registration in shipped(rulesets.registrations()):
        ruleset = registration.plugin
        own = dict(ruleset.codes()) if ruleset is not None else {}
        if ruleset is None or not own:
            continue
        parts.append(f"## The {ruleset.name} ruleset's codes\n")
        parts.append(f"Reported by `cardpress validate` for games whose `game.yaml` says `ruleset: {ruleset.name}`.\n")
        parts.append(table(["Code", "Meaning"], [[code, meaning] for code, meaning in own.items()]))
    return "\n".join(parts)
