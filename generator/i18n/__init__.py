"""Translations: catalogues of a game's printed words, read and written as gettext PO files."""
