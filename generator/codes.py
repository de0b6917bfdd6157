"""Every diagnostic code cardpress reports, with its one-line meaning: the generic ones here, each ruleset's own from it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    """One diagnostic code: where it comes from (a layer, or the ruleset that raises it) and what it means."""

    code: str
    layer: str
    meaning: str


def _codes(layer: str, meanings: dict[str, str]) -> dict[str, Code]:
    return {code: Code(code, layer, meaning) for code, meaning in meanings.items()}


# The codes any game can get; a ruleset's own checks use codes it declares (Ruleset.codes).
GENERIC: dict[str, Code] = {
    **_codes(
        "YAML",
        {
            "Y001": "YAML syntax error",
            "Y002": "duplicate key",
            "Y003": "file too large",
            "Y004": "file not found",
            "Y005": "not a regular file (a folder, FIFO, device or socket): refused before it is opened",
            "Y006": "a file (or link) that leads out of the project, or of its game folder",
            "Y007": "an unusable path: a NUL character, a loop of links, a name too long",
        },
    ),
    **_codes(
        "schema",
        {
            "S001": "wrong type",
            "S002": "missing key (a deck: an empty required cell, or a field its templates read is missing)",
            "S003": 'unknown key (with "did you mean"); a deck warns of a column or key no template reads that is '
            "close to one that is read (a typo such as `copeis`)",
            "S004": "value out of range or not allowed (bad id, card size, copies, markup, player count, …)",
            "S005": "unknown reference: template, icon, ruleset, machine or resource",
            "S006": "the same id twice",
            "S010": "a path that leaves its folder",
        },
    ),
    **_codes(
        "CSV",
        {
            "C001": "CSV syntax error (e.g. a quoted cell never closed, located at its opening quote)",
            "C002": "header row missing or wrong: no header, a column that is not a field name, a column named twice",
            "C003": "a ragged row: more or fewer cells than the header names",
            "C004": "a file given as a CSV table that is not text: a spreadsheet (name the .xlsx or .ods file itself), an old .xls or another binary file; its bytes are never shown",
            "C005": "a spreadsheet (.xlsx, .ods) that cannot be read: not one by its content, damaged or encrypted, over the size limits when unpacked (a zip bomb), or without the sheet named",
            "C006": "a spreadsheet cell whose formula has no saved value, or that shows an error value (#DIV/0!, #REF! …)",
        },
    ),
    **_codes(
        "templates",
        {
            "T001": "layout template not found",
            "T002": "template syntax error",
            "T003": "template error or unsafe operation while rendering (its CPU-time budget passed included)",
            "T004": "a stage of a face (parse, text setting, drawing, lint) used more than its CPU-time budget",
        },
    ),
    **_codes(
        "layout document",
        {
            "L001": "wrong type in what a template rendered",
            "L002": "missing key in what a template rendered",
            "L003": "unknown key in what a template rendered",
            "L004": "value out of range in what a template rendered, or an unreadable layout size",
            "L010": "the layout's size differs from the card face's size",
            "L012": "unknown icon (an icon, pattern, stand-in glyph or inline icon in text)",
            "L013": "`over` names no icon or image of the face",
            "L020": "bad icon shape in icons.yaml, or an SVG icon file refused (by the SVG art checks, at its line) or drawing no shape",
        },
    ),
    **_codes(
        "layout lint",
        {
            "L100": "text overflows its box even at its minimum size",
            "L101": "an element inside the 3 mm safe zone",
            "L110": "text whose set lines overlap another text's lines, an icon or image it does not own, or a shape drawn after it (error)",
            "L111": "text set below the game's minimum printed size (6 pt; 7 pt for `role: rules` text)",
            "L112": "text with too little contrast against what is drawn behind it (WCAG 2.x: 4.5:1, or 3:1 from 18 pt and 14 pt bold)",
            "L113": "text set on art it owns: its contrast cannot be measured (warning)",
            "L114": "text below 9 pt in a colour a press file prints on three or four inks (warning, by preflight and the DriveThruCards export): near black prints on K alone",
        },
    ),
    **_codes(
        "art",
        {
            "A001": "missing art: the file does not exist (or the card names none); a stand-in is drawn. A warning, an error or nothing, by the `missing_art` policy",
            "A002": "art below 300 dpi at print size: it will print soft (warning)",
            "A003": "art upscaled more than 2× past print resolution (below 150 dpi): pixels will show (warning)",
            "A004": "unusable image: not PNG, JPEG, WebP or SVG by its content, unreadable or truncated, over 50 MiB or 50 million pixels; an SVG with a DOCTYPE, a script or event attribute, a reference outside itself, or too many elements once its <use>s are expanded, located at its own line (error)",
        },
    ),
    **_codes(
        "fonts",
        {
            "F001": "unusable font file",
            "F002": "undefined font family",
            "F004": "a character that neither the text's font nor any fallback font has a glyph for (it would print as an empty box), located where the text is written",
        },
    ),
    **_codes(
        "game",
        {
            "G001": "no such game folder under cards/",
            "G002": "the game's ruleset is registered but could not be loaded",
            "G003": "`--root` names no project (a missing folder, a file, or no cards/ at or above it)",
        },
    ),
    **_codes(
        "build",
        {
            "B001": "unsupported player count",
            "B002": "cards of one shuffled deck print different backs",
            "B004": "cards of one deck differ in size",
            "B005": "a deck's cards do not fit on the paper (located at its `size`) or in a declared grid",
            "B006": "a deck is too thick for a tuck box on the paper, even split over two sheets (located at its "
            "`size`, or game.yaml's `boxes:`)",
        },
    ),
    **_codes(
        "edition",
        {
            "E001": "`extends` names no game in cards/ (with the closest name)",
            "E002": "`extends` makes a cycle (a → b → a)",
            "E003": "a card the edition changes or removes is not in its base (with the closest id)",
            "E004": "a card marked `add: true` is already in the base",
            "E006": "an entry of a list of cards does not name its card by `id`",
            "E007": "`add:`/`remove:` is not `true`, both are given, or a removed card also changes fields",
            "E008": "the edition names another ruleset than its base's",
            "E009": "more than eight editions extend one another",
            "E010": "the same card is changed twice in one file",
            "E011": "a key set to `null` (to remove it) that the base does not have",
            "E012": "`diff` of a game that extends nothing",
            "E013": "`new-edition` with a name that is taken or not a folder name",
            "E014": "a YAML file in an edition that nothing reads (warning)",
            "F003": "an edition's fonts/ has no fonts.yaml",
        },
    ),
    **_codes(
        "translation",
        {
            "I001": "messages.po is not a readable gettext PO file (located at the line Babel stops at)",
            "I002": "a message the base prints has no entry in messages.po (error), or has no translation yet or a "
            "fuzzy one, so it prints in English (warning)",
            "I003": "messages.po has an entry the base does not print (with the closest msgid)",
            "I004": "a translation does not keep its msgid's {slots}, has a brace that is not a slot, is too long or "
            "has too many …, or the number words are not twenty-one",
            "I005": "`language:` without a messages.po, or a catalogue whose Language header says another language",
            "I006": "a translation has other markup tags (<b>, <i>, <br>, <icon …>) than its msgid",
            "I007": "`new-translation` with a name that is taken or not a folder name, a bad `--lang`, or a base that "
            "does not validate",
        },
    ),
    **_codes(
        "output",
        {
            "O001": "a file cannot be written (`--out` is a file, read-only, disk full, name too long): nothing changed",
            "O002": "a write refused: a part of its path is a link, or it leads outside the project or `--out`",
        },
    ),
    **_codes(
        "export",
        {
            "X001": "`--back-offset` is not X,Y in mm, is beyond 10 mm, or is given with gutterfold",
            "X002": "`--dpi` outside 72–1200",
            "X003": "no such `--cmyk-profile` file, or it is not a CMYK ICC profile",
            "X004": "an export target that is not installed, or whose package failed to load",
            "X005": "where a virtual table's saved object loads its images from (warning): this machine's file:/// URLs, or the host `--url-prefix` names",
        },
    ),
    **_codes(
        "preflight",
        {
            "K001": "an exported file breaks a shop's requirement (located at the file, with the page, image or key)",
            "K002": "nothing to preflight: the shop's files were not exported to OUT/<game>/<target>/",
            "K003": "a requirement a shop may still accept (warning): an element in its safe zone, repeated subset tags",
        },
    ),
    **_codes(
        "proof, serve",
        {
            "P001": "no such card or page",
            "P002": "`--card` without a game",
            "P003": "the port is taken",
        },
    ),
    **_codes(
        "new",
        {
            "N001": "the game folder already exists",
            "N002": "the name cannot name a game folder",
            "N003": "bad `--size`",
            "N004": "`--sheet` without an .xlsx or .ods workbook given with `--from-csv`",
        },
    ),
    **_codes(
        "usage",
        {
            "U001": "unknown bot",
            "U002": "a player count the game does not support",
            "U003": "`--bots` names the wrong number of bots",
            "U004": "a bad option value (`--start`, `--skip`, `--turns`, …)",
            "U005": "the game's ruleset does not offer the command",
            "U006": "unknown variant",
            "U007": "bad `--scheduler` address",
            "U008": "the Dask cluster cannot be reached or cannot run the games",
            "U009": "no such diagnostic code (`cardpress codes CODE`)",
            "U010": "a command-line mistake: an unknown option or command, or a value the option does not take (exit 2)",
            "U011": "`--vary` without `=RANGE`",
            "U012": "`--vary` names no card with that id (or an id used twice)",
            "U013": "`--vary` path is not a value of the card or of game.yaml (or is not a number)",
            "U014": "a bad range: empty, a non-positive step, too many values or points",
            "U015": "unknown `--measure`, or one the game does not record for that card",
            "U016": "more than two `--vary`, or one value varied twice",
            "U017": "a sweep point the game cannot load (all rejected: nothing written)",
            "U018": "a swept value's place is gone from the file it was in",
            "U019": "`compare` given two different games (only editions of one game compare)",
        },
    ),
    **_codes(
        "replay",
        {
            "R001": "a game log line that is not a game record (bad JSON, a missing field, another format)",
            "R002": "`replay --game N` names no game in the log",
            "R003": "the game's card files changed since the log was written (the replay may disagree)",
            "R004": "the engine disagrees with the log: an illegal action, another player to act, another "
            "name, a run `explain` tells otherwise, or other final scores",
        },
    ),
}


def registry() -> dict[str, Code]:
    """Return every code: the generic ones, then each registered ruleset's own, by ruleset name."""
    from . import registry as rulesets

    found = dict(GENERIC)
    for registration in rulesets.registrations():
        ruleset = registration.plugin
        if ruleset is not None:
            found.update(_codes(ruleset.name, dict(ruleset.codes())))
    return found
