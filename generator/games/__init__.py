"""Rulesets: one sub-package per game family, each loading, checking and printing its card data."""

from __future__ import annotations

import importlib
from types import ModuleType

RULESETS = {
    "pocket-foundry": "generator.games.pocket_foundry",
    "micro-engine": "generator.games.micro_engine",
}


def ruleset(name: str) -> ModuleType:
    """Import the ruleset package for `name` (raises KeyError for an unknown ruleset)."""
    return importlib.import_module(RULESETS[name])
