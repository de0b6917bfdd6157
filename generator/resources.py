"""Where cardpress's own files are: the shipped games, shared templates and fonts, inside the installed package."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def shipped() -> Path:
    """Return the folder holding the shipped cards/, layouts/ and fonts/.

    A wheel carries them in generator/shipped/ (its build maps the checkout's top-level folders there); an
    editable install runs from the checkout, whose top-level folders are the same files.
    """
    packaged = PACKAGE / "shipped"
    return packaged if packaged.is_dir() else PACKAGE.parent


def fonts(root: Path) -> Path:
    """Return the fonts folder a project uses: its own fonts/ when it has a fonts.yaml, else the shipped one.

    Any fonts.yaml counts, even one that cannot be read (a loop of links, a folder): reading it says why,
    rather than the shipped fonts standing in unannounced.
    """
    own = root / "fonts"
    return own if os.path.lexists(own / "fonts.yaml") else shipped() / "fonts"


def common_layouts(root: Path) -> list[Path]:
    """Return where the shared templates (macros, cover, furniture) are looked up: the project's, then cardpress's."""
    return list(dict.fromkeys([root / "layouts" / "common", shipped() / "layouts" / "common"]))


def installed(extra: Sequence[Path] = ()) -> list[Path]:
    """Return the folders of installed files a project may read besides its own: cardpress's, and `extra`."""
    return list(dict.fromkeys([shipped(), *extra]))
