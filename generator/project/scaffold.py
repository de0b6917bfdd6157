"""`cardpress new GAME`: write a small working game of the `deck` ruleset (data, templates, icons, art stand-ins).

The new game builds at once with no warnings. From `--from-csv`, its cards are the user's table and its
front template prints every column. Nothing is left behind when anything fails: the folder is written
whole or not at all, and an existing folder is never touched.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import replace
from importlib import resources
from pathlib import Path

from ..diagnostics import CardpressError, Diagnostic, Location, Report
from ..impose.sizes import SizeError, parse_size
from ..layout.markup import MarkupError, parse
from ..source import sheetsrc, tablesrc
from .output import write_all

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}$")
SKELETON = "skeleton"
FILES = {  # skeleton file -> where it goes in the game folder
    "game.yaml": "game.yaml",
    "cards.csv": "cards.csv",
    "icons.yaml": "layouts/icons.yaml",
    "card-front.yaml.j2": "layouts/card-front.yaml.j2",
    "card-back.yaml.j2": "layouts/card-back.yaml.j2",
}
SPECIAL = ("id", "name", "copies", "art", "template", "back")  # columns the generated front does not list


def title_of(game_id: str) -> str:
    """Return a title for a game id: 'star-port' -> 'Star Port'."""
    return " ".join(w.capitalize() for w in game_id.split("-") if w) or game_id


def new_game(
    root: Path,
    game_id: str,
    size: str = "poker",
    from_csv: Path | None = None,
    tell: Callable[[str], None] = lambda _: None,
    sheet: str | None = None,
) -> list[Path]:
    """Write cards/<game_id>/ under `root` and its art stand-ins; return the files written; `tell` hears notes.

    Raise CardpressError (nothing written) for a bad name, an existing folder, a bad size or a bad CSV.
    """
    report = Report()
    folder = root / "cards" / game_id
    if not GAME_ID.match(game_id):
        fixed = re.sub(r"[^a-z0-9]+", "-", game_id.lower()).strip("-")[:48]
        report.error(
            "N002",
            f"'{game_id}' cannot name a game folder",
            hint=(f"try '{fixed}': " if fixed else "") + "a game folder is named in lower-case letters, digits and -",
        )
    elif folder.exists():
        shown = f"cards/{game_id}/game.yaml" if (folder / "game.yaml").exists() else f"cards/{game_id}"
        report.error(
            "N001",
            f"cards/{game_id} already exists; `cardpress new` never overwrites a folder",
            loc=Location(shown, 1, 1),
            hint="choose another name, or remove the folder first",
        )
    size_text = _size(size, report)
    if sheet is not None and (from_csv is None or not sheetsrc.is_spreadsheet(from_csv.name)):
        report.error("N004", "--sheet names a sheet of an .xlsx or .ods workbook given with --from-csv")
    files = _files(game_id, size_text, from_csv, report, tell, sheet)
    if not report.ok() or files is None:
        raise CardpressError(report)
    written = write_all({folder / name: data for name, data in files.items()}, root=root)
    try:
        written += _stand_ins(root, game_id, from_csv)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)  # the folder did not exist before: leave nothing half made
        raise
    return written


def _size(value: str, report: Report) -> str:
    """Return the size as game.yaml will say it; report one that is not a card size."""
    try:
        parse_size(value)
    except SizeError as exc:
        report.error("N003", f"--size: {exc.message}", hint=exc.hint)
    return value.strip()


def _skeleton(name: str) -> str:
    return resources.files("generator.project").joinpath(SKELETON, name).read_text(encoding="utf-8")


def _files(
    game_id: str,
    size: str,
    from_csv: Path | None,
    report: Report,
    tell: Callable[[str], None],
    sheet: str | None = None,
) -> dict[str, bytes] | None:
    """Return {path in the game folder: bytes}: the skeleton filled in, or built around the user's CSV."""
    fill = {"@TITLE@": title_of(game_id), "@GAME@": game_id, "@SIZE@": _yaml_scalar(size)}
    files = {}
    for name, target in FILES.items():
        text = _skeleton(name)
        for key, value in fill.items():
            text = text.replace(key, value)
        files[target] = text.encode("utf-8")
    if from_csv is None:
        return files
    # The sheet is one the user names on the command line, so it may lie anywhere; still a regular file.
    roots = [Path(Path(os.path.abspath(from_csv)).anchor)]
    book = sheetsrc.is_spreadsheet(from_csv.name)
    if book:  # the game reads the user's workbook itself, so its header follows the rules as written
        table = sheetsrc.load_file(from_csv, str(from_csv), report, roots=roots, sheet=sheet)
    else:
        table = tablesrc.load_file(from_csv, str(from_csv), report, roots=roots, normalise=True)
    if not report.ok():
        return None
    if "name" not in table.columns:
        report.error(
            "S002",
            "no column 'name': every card needs a name",
            loc=table.column_loc("name"),
            hint="add a column 'name' to the header row",
        )
        return None
    shown = [c for c in table.columns if c and c not in SPECIAL]
    if book:
        name = "cards" + from_csv.suffix.lower()
        del files["cards.csv"]
        files[name] = from_csv.read_bytes()
        chosen = f"\n    sheet: {_yaml_scalar(sheet)}" if sheet else ""
        text = files["game.yaml"].decode("utf-8")
        text = re.sub(
            r"(?m)^    cards: cards\.csv( *)#.*$",
            f"    cards: {name}  # one row per card; the columns are the card's fields{chosen}",
            text,
        )
        files["game.yaml"] = text.encode("utf-8")
    elif table.renamed:  # a spreadsheet's header ('Flavour text'): the game's copy names its columns as cards read them
        files["cards.csv"] = tablesrc.with_columns(table).encode("utf-8")
        read = ", ".join(f"'{old}' as {new}" for old, new in table.renamed.items())
        tell(f"{from_csv}: read the header's {read} (cards/{game_id}/cards.csv names them so)")
    else:
        files["cards.csv"] = from_csv.read_bytes()
    markup = _markup_columns(table, shown)
    game = (
        files["game.yaml"]
        .decode("utf-8")
        .replace("    required: [text]                 # cells that must not be empty (name always must)\n", "")
    )
    declared = f"    markup: [{', '.join(markup)}]  # columns whose cells are markup; others print < > & as written\n"
    game = re.sub(r"(?m)^    markup: \[text\].*\n", declared if markup else "", game)
    files["game.yaml"] = game.encode("utf-8")
    files["layouts/card-front.yaml.j2"] = _front_for(shown).encode("utf-8")
    return files


def _markup_columns(table: tablesrc.Table, columns: list[str]) -> list[str]:
    """Return the columns whose cells hold tags (<b>, <br> …) that read as markup: the new game declares them."""
    found = []
    for column in columns:
        cells = [str(row.get(column, "")) for row in table.data]
        tagged = [c for c in cells if re.search(r"<[a-z/]", c)]
        if tagged and all(_parses(c) for c in tagged):
            found.append(column)
    return found


def _parses(text: str) -> bool:
    try:
        parse(text)
    except MarkupError:
        return False
    return True


def _front_for(columns: list[str]) -> str:
    """Return a front template that prints the name and then every other column as a labelled line."""
    parts = [f'"<b>{c.replace("_", " ").capitalize()}:</b> " ~ rich.{c}' for c in columns]
    body = ' ~ "<br>" ~ '.join(parts) if parts else '""'
    return (
        "{#- The front of every card: its name, its art, then each column of cards.csv as a line. It sees\n"
        "    card (each column, plus id, name, copies and art), rich (the same text as markup: :coin:\n"
        "    becomes the icon), deck, game and face (w, h in mm, safe). Restyle it freely. -#}\n"
        '{% import "macros.j2" as m %}\n'
        "{% set W = face.w %}{% set H = face.h %}{% set S = face.safe %}\n"
        "{% set c = game.style.back %}\n"
        "{% set band = [H * 0.13, 9]|max %}\n"
        f"{{% set body = {body} %}}\n"
        "bleed: 3\n"
        "elements:\n"
        "- {{ m.rect(-3, -3, W + 6, H + 6, fill=game.style.paper, bleed=true) }}\n"
        '- {{ m.rect(S, S, W - 2 * S, H - 2 * S, fill="#fffdf8", stroke=c, width=0.5, radius=2.5) }}\n'
        "- {{ m.rect(S, S, W - 2 * S, band, fill=c, radius=2.5) }}\n"
        '- {{ m.text(S + 2, S + 0.6, W - 2 * S - 4, band - 1.2, card.name, font="display", size=[band * 1.25, 16]|min, '
        'min=7, colour="#ffffff", valign="middle", plain=true, lines=1, id="name") }}\n'
        "- {{ m.image(card.art.src, S + 2, S + band + 2, W - 2 * S - 4, H * 0.36, fit=card.art.fit, focus=card.art.focus, "
        'radius=1.5, glyph="coin", colour=c, id="art") }}\n'
        "- {{ m.text(S + 3, S + band + H * 0.36 + 4, W - 2 * S - 6, H - 2 * S - band - H * 0.36 - 6, body, size=9, "
        'min=6, colour=game.style.ink, leading=1.2, id="text") }}\n'
    )


def _yaml_scalar(text: str) -> str:
    """Return `text` as a YAML scalar: plain when it reads back as the same string, else quoted."""
    return text if re.fullmatch(r"[A-Za-z][A-Za-z0-9 .×x-]*", text) else '"' + text.replace('"', '\\"') + '"'


def _stand_ins(root: Path, game_id: str, from_csv: Path | None) -> list[Path]:
    """Draw the art stand-ins through the pipeline; a problem in the user's CSV fails, located in their file."""
    from ..art.make import make_missing
    from ..pipeline import Pipeline

    pipeline = Pipeline(root, game_id, missing_art="placeholder")
    faces = pipeline.layout()
    studio = pipeline.studio()
    if faces is None or studio is None or not pipeline.report.ok():
        raise CardpressError(_relocated(pipeline.report, game_id, from_csv))
    faces_made = [p for p in faces.values() if p is not None]
    return make_missing(faces_made, studio.fonts, studio.icons, root / "cards" / game_id)


def _relocated(report: Report, game_id: str, from_csv: Path | None) -> Report:
    """Point diagnostics about the copied CSV at the user's own file (same bytes, same lines and columns)."""
    if from_csv is None:
        return report
    copied = f"cards/{game_id}/cards{from_csv.suffix.lower() if sheetsrc.is_spreadsheet(from_csv.name) else '.csv'}"
    out = Report()
    for d in report.items:
        if d.loc and d.loc.file == copied:
            loc = replace(d.loc, file=str(from_csv))
            d = Diagnostic(d.severity, d.code, d.message, d.path, loc, d.hint)
        out.add(d)
    return out
