"""Pocket Foundry (Round & Revel): card data, printed text, print kit and rules model."""

from .kit import kit
from .load import load

__all__ = ["kit", "load"]
