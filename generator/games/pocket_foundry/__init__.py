"""Pocket Foundry (Round & Revel): card data, printed text, print kit and rules model."""

from .load import load

__all__ = ["load"]
