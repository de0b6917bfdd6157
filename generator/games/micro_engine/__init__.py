"""Micro-Engine: Pocket Workshop: card data, printed text, rules model, validator and bots."""

from .kit import kit
from .load import load
from .rules import check_rules

__all__ = ["load", "check_rules", "kit"]
