"""The short README.md every export folder gets: which file goes where, for the target that wrote it."""

from __future__ import annotations

from pathlib import Path

from .options import ExportOptions

NAME = "README.md"

TEXTS = {
    "pnp": (
        "Home print-and-play kits",
        "- `*.pdf`: one kit per paper (and per variant the name says: players, gutterfold, low ink). Print it "
        'duplex as the first page says, at 100 % (no "fit to page"); page 2 checks the duplex alignment.',
    ),
    "cards": (
        "One image per card face",
        "- `DECK-SIZE/NNN-CARD-front.png`, the back(s) and `counts.csv` (front, back, count, name): for any "
        "printer or tool that takes one image per face.",
    ),
    "thegamecrafter": (
        "The Game Crafter",
        "- `DECK-SIZE/`: one folder per deck. Upload every `*-front.png` as the deck's faces with the counts "
        "in `counts.csv`, and `back.png` as its back (or each card's `*-back.png`).\n"
        "- Check first: `cardpress preflight GAME --shop tgc`.",
    ),
    "makeplayingcards": (
        "MakePlayingCards (and PrinterStudio)",
        '- `DECK-SIZE/`: one folder per deck. Upload the fronts as "different images" with the counts in '
        '`counts.csv`, and `back.png` as the "same image" back (or one back per card).\n'
        "- Check first: `cardpress preflight GAME --shop mpc`.",
    ),
    "drivethrucards": (
        "DriveThruCards",
        "- `GAME-DECK-SIZE-dtc.pdf`: one PDF/X-1a:2003 print file per deck (back page, then front page, for "
        "every card). Upload it as the card product's print file.\n"
        "- Check first: `cardpress preflight GAME --shop dtc`.",
    ),
    "tts": (
        "Tabletop Simulator",
        "- `GAME.json`: a saved object. Copy it into TTS's `Saves/Saved Objects/` folder and spawn it from "
        "Objects → Saved Objects.\n"
        "- `*.png`: the card sheets and backs it loads. {urls}",
    ),
    "ttpg": (
        "Tabletop Playground",
        "- This folder is a package: `Templates/*.json` (one card-stack object template per deck sheet) and "
        "`Textures/*.png` (the sheets and backs they name). Copy `Templates/` and `Textures/` into a package "
        "of yours (Tabletop Playground's PersistentDownloadDir/PACKAGE/) and spawn the decks from the "
        "object library.",
    ),
    "screentop": (
        "Screentop.gg",
        "- `DECK-SIZE/fronts-N.png`: the deck's fronts in a grid; import it as a deck with the columns and "
        "rows that `cards.csv` gives for it.\n"
        "- `back.png`, or `backs/*.png` with `cards.csv` saying which card has which back (sheet, its columns and "
        "rows, the card's row and column, name, count, back): set the backs in Screentop's bulk editor.",
    ),
    "bundle": (
        "Bundle",
        "- `GAME-bundle.zip`: every target's files in one zip, each folder with its own README, and "
        "`manifest.json` listing every file with its size and SHA-256.\n"
        "- `tts/`: the Tabletop Simulator files unpacked, the images its saved object loads (see its README).",
    ),
}


def readme(target: str, game_id: str, options: ExportOptions, folder: Path) -> bytes | None:
    """Return the README of a target's folder, or None for a target cardpress does not ship."""
    if target not in TEXTS:
        return None
    title, body = TEXTS[target]
    if options.url_prefix:
        urls = f"They must be online at {options.url_prefix.rstrip('/')}/ before TTS loads the object."
    else:
        urls = (
            f"The object names them as {folder.as_uri()}/…, so it loads on this machine only; to share it, "
            f"host the PNGs and export again with `--url-prefix https://…/`."
        )
    text = f"# {title}: {game_id}\n\n{body.replace('GAME', game_id).replace('{urls}', urls)}\n"
    return text.encode("utf-8")
