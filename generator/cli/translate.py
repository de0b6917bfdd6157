"""The translation commands: `new-translation` and `pseudo-locale` (registered on the main CLI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from .examples import examples
from .options import RootOpt, root_of, shown


def new_translation(
    name: str = typer.Argument(..., help="Folder name of the translation under cards/, e.g. pocket-foundry-fr."),
    base: str = typer.Option(..., "--from", help="The game (or edition) it translates.", show_default=False),
    lang: str = typer.Option(..., "--lang", help="Its language, a BCP 47 tag: fr, de, pt-BR.", show_default=False),
    root: Optional[Path] = RootOpt,
) -> None:
    """Create cards/NAME/: a translation of a game, with its catalogue (messages.po), card words and rulebook."""
    from ..i18n.scaffold import create

    for path in create(root_of(root), name, base, lang):
        typer.echo(f"wrote {shown(path)}")
    typer.echo(
        f"{name} translates {base} into '{lang}'. Translate each msgstr in messages.po, the card words and "
        f"rulebook.txt; `cardpress validate {name}` checks every number against the rules."
    )


def pseudo_locale(
    game: str = typer.Argument(..., help="A game or edition under cards/.", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
    root: Optional[Path] = RootOpt,
) -> None:
    """Lay the game out with every word accented and 35 % longer; list each face whose text would overflow.

    Exits 1 when any face overflows, so a CI step can hold a game to fit its translations."""
    from ..i18n.pseudo import overflows

    found = overflows(root_of(root), game)
    typer.echo(json.dumps(found.to_json(), indent=1, ensure_ascii=False) if as_json else found.to_text(), nl=as_json)
    if found.faces:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the translation commands to the main CLI."""
    app.command("new-translation", epilog=examples("new-translation"))(new_translation)
    app.command("pseudo-locale", epilog=examples("pseudo-locale"))(pseudo_locale)
