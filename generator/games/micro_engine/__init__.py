"""Micro-Engine: Pocket Workshop: card data, printed text, rules model, validator and bots."""

from .load import load

__all__ = ["load"]
