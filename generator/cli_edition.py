"""The fan-edition commands: `new-edition`, `diff` and `compare` (registered on the main CLI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from .cli import RootOpt, _root, _shown

NameArg = typer.Argument(..., help="Folder name of the new edition under cards/, e.g. pocket-foundry-deluxe.")


def new_edition(
    name: str = NameArg,
    base: str = typer.Option(..., "--from", help="The game (or edition) it is based on.", show_default=False),
    title: Optional[str] = typer.Option(None, "--title", help="Its title (default: '<base title>: Fan Edition')."),
    author: List[str] = typer.Option([], "--author", help="An author's name (repeatable)."),
    licence: Optional[str] = typer.Option(None, "--licence", help="Its licence, e.g. 'CC BY-SA 4.0'."),
    version: str = typer.Option("0.1", "--version", help="Its version."),
    rulebook: bool = typer.Option(
        False, "--rulebook", help="Copy the base's rulebook.txt to edit (an edition that changes a rule says so there)."
    ),
    root: Optional[Path] = RootOpt,
) -> None:
    """Create cards/NAME/: a fan edition that extends a game and holds only what it changes."""
    from .edition import create

    for path in create(
        _root(root), name, base, title=title, authors=tuple(author), licence=licence, version=version, rulebook=rulebook
    ):
        typer.echo(f"wrote {_shown(path)}")
    typer.echo(
        f"{name} extends {base}. Change cards by id in a file named like the base's; "
        f"`cardpress diff {name}` lists what it changes, `cardpress validate {name}` checks it."
    )


def diff(
    edition: str = typer.Argument(..., help="A fan edition under cards/.", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
    root: Optional[Path] = RootOpt,
) -> None:
    """List what a fan edition changes against the game it extends: card by card, constants, rulebook, files."""
    from .editiondiff import diff as run
    from .editiondiff import to_text

    result = run(_root(root), edition)
    typer.echo(json.dumps(result.to_json(), indent=1, ensure_ascii=False) if as_json else to_text(result), nl=as_json)


def register(app: typer.Typer) -> None:
    """Add the fan-edition commands to the cardpress CLI."""
    app.command("new-edition")(new_edition)
    app.command()(diff)
