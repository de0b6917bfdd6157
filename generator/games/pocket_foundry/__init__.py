"""Pocket Foundry (Round & Revel): card data, printed text, print kit and rules model."""

from .kit import kit
from .load import load
from .rules_check import check_rules

__all__ = ["kit", "load", "check_rules"]


def rules_commands():
    """Return the module behind `explain`, `simulate` and `analyze` (imported only when asked for)."""
    from . import commands as module

    return module
