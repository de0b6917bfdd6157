"""The manual's reference pages that are made from the code: the CLI, the diagnostic codes, export targets, layouts."""

from __future__ import annotations

from collections.abc import Callable

from . import cli, codes, exports, layout, macros, sizes

# Each generated page of docs/, by its path there, and the function that writes its Markdown.
PAGES: dict[str, Callable[[], str]] = {
    "reference/cli.md": cli.page,
    "reference/codes.md": codes.page,
    "reference/exports.md": exports.page,
    "reference/layout-elements.md": layout.page,
    "reference/macros.md": macros.page,
    "reference/card-sizes.md": sizes.page,
}
