"""The examples every command's `--help` ends with, kept in one place so the manual's command-line reference shows the same ones."""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence

EXAMPLES: dict[str, tuple[str, ...]] = {
    "cardpress": (
        "cardpress list                          # the games here, their player counts and kits",
        "cardpress build                         # every game's kit into output/",
        "cardpress COMMAND --help                # a command's options and examples",
    ),
    "validate": (
        "cardpress validate                      # every game under cards/",
        "cardpress validate pocket-foundry --missing-art warn",
    ),
    "build": (
        "cardpress build                         # every game, A4 and Letter, into output/",
        "cardpress build pocket-foundry --paper letter --players 3",
        "cardpress build micro-engine --out kits",
    ),
    "new": (
        "cardpress new star-port                 # a poker-size deck that builds at once",
        "cardpress new star-port --size tarot --from-csv crew.csv",
    ),
    "list": (
        "cardpress list                          # every game and edition, as a table",
        "cardpress games --json                  # the same, for scripts",
    ),
    "simulate": (
        "cardpress simulate pocket-foundry --players 3 --games 500 --bots planner",
        "cardpress simulate micro-engine --list-bots",
        "cardpress simulate micro-engine --variant quick --scheduler local:2",
        "cardpress simulate pocket-foundry --games 50 --log games.jsonl   # every game, one JSON line each",
    ),
    "replay": (
        "cardpress replay games.jsonl --game 3   # game 3, move by move through the engine",
        "cardpress replay games.jsonl --game 3 --quiet",
    ),
    "proof": (
        "cardpress proof pocket-foundry          # every face, and contact.png",
        "cardpress proof pocket-foundry --card feed-belt --dpi 150",
        "cardpress proof pocket-foundry --overlay   # trim and safe zone, as *.overlay.png",
    ),
    "watch": (
        "cardpress watch pocket-foundry          # proofs at once, PDFs when edits pause",
        "cardpress watch hedgerow --no-pdf --dpi 100",
    ),
    "serve": (
        "cardpress serve pocket-foundry          # then open http://127.0.0.1:8000/",
        "cardpress serve --port 0                # every game, on any free port",
    ),
    "new-edition": (
        'cardpress new-edition pf-deluxe --from pocket-foundry --title "Pocket Foundry Deluxe"',
        "cardpress new-edition me-tweak --from micro-engine --author 'A. Fan' --licence 'CC BY-SA 4.0'",
    ),
    "new-translation": (
        "cardpress new-translation pf-de --from pocket-foundry --lang de",
        "cardpress new-translation pocket-foundry-es --from pocket-foundry --lang es",
    ),
    "pseudo-locale": (
        "cardpress pseudo-locale pocket-foundry  # every face whose text would overflow in a longer language",
        "cardpress pseudo-locale hedgerow --json",
    ),
    "diff": (
        "cardpress diff pocket-foundry-unjammed  # what the edition changes, card by card",
        "cardpress diff micro-engine-even-race --json",
    ),
    "compare": (
        "cardpress compare pocket-foundry pocket-foundry-unjammed --games 2000 --replicate 2",
        "cardpress compare micro-engine micro-engine-even-race --players 3 --jobs 2",
    ),
    "sweep": (
        "cardpress sweep pocket-foundry --vary cards.ticket-stamp.points=1..6 --games 1000 --bots planner",
        "cardpress sweep micro-engine --vary cards.row-organizer.vp=0..6 --measure owner",
        "cardpress sweep micro-engine --vary rounds=6..9 --measure first-seat",
    ),
    "export": (
        "cardpress export pocket-foundry --to pnp --duplex gutterfold --low-ink",
        "cardpress export micro-engine --to tts --url-prefix https://example.org/me/",
        "cardpress export hedgerow --to all      # every target, and the bundle zip",
    ),
    "preflight": (
        "cardpress preflight hedgerow --shop dtc   # after `cardpress export hedgerow --to drivethrucards`",
        "cardpress preflight --shop all            # every game, every shop and TTS",
    ),
    "codes": (
        "cardpress codes                         # every diagnostic code and what it means",
        "cardpress codes S003                    # one code",
    ),
    "art": (
        "cardpress art pocket-foundry            # what each image should measure, and what is missing",
        "cardpress art hedgerow --make-missing   # stand-ins sized for their boxes",
    ),
}


def epilog(lines: Sequence[str]) -> str:
    """Return an `Examples:` block for a command's help; `\\b` keeps click from re-wrapping the lines."""
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)


def examples(command: str) -> str:
    """Return the epilog of a core command."""
    return epilog(EXAMPLES[command])


_EXAMPLE = re.compile(r"^\s*Example:\s*(.+)$", re.M)


def split_examples(doc: str | None) -> tuple[str, list[str]]:
    """Return a docstring without its `Example: …` lines, and those lines (how game commands declare theirs)."""
    text = inspect.cleandoc(doc or "")
    found = _EXAMPLE.findall(text)
    return _EXAMPLE.sub("", text).strip(), found
