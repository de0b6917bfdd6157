"""Micro-Engine: Pocket Workshop: card data, printed text, rules model, validator and bots."""

from .kit import kit
from .load import load
from .rules import check_rules

__all__ = ["load", "check_rules", "kit"]


def rules_commands():
    """Return the module behind `simulate` and `analyze` (imported only when asked for)."""
    from . import commands as module

    return module
