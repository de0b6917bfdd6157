"""Read a generic game: its decks from game.yaml, their cards from CSV, YAML or a list, every problem located."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from ...contract import Header
from ...sdk import (
    MAX_BOARD,
    CardSize,
    GameDir,
    KeyPath,
    Location,
    Report,
    SizeError,
    Source,
    Templates,
    card_art,
    did_you_mean,
    format_path,
    parse_size,
    sheetsrc,
    tablesrc,
)
from .model import Back, Board, Deck, DeckCard, DeckGame
from .richtext import problems, to_markup
from .uses import Uses, template_uses

MAX_COPIES = 500  # of one card
MAX_CARDS = 5_000  # printed cards in one game, copies included
ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}$")
FIELD = re.compile(r"^[a-z][a-z0-9_]{0,47}$")  # a field name, as the deck-cards schema says
COMPUTED = ("id", "name", "copies", "art")  # every card has these, whether its row names them or not
SPECIAL = ("template", "back")  # fields that choose a template rather than print
SHAPES = ("rectangle", "circle", "hex")  # what a deck may cut to: cards and square tokens, round and hex ones


@dataclass
class Record:
    """One card as written, and where: a CSV row (path `(row,)`) or a YAML mapping (its key path)."""

    fields: dict[str, Any]
    source: Source
    path: KeyPath
    table: bool  # from a CSV table: report cells by column name
    file: str = "game.yaml"  # the card file it is in, as edits name it (a sheet: `book.xlsx!Sheet`)

    def loc(self, field: str | None = None) -> Location:
        """Return where `field` (or the card, when it lacks the field) is written."""
        return self.source.loc(self.path + ((field,) if field else ()))

    def where(self, field: str | None = None) -> str:
        """Return the key path shown in a message: the column name for a CSV cell."""
        if self.table:
            return field or ""
        return format_path(self.path + ((field,) if field else ()))

    def line(self) -> str:
        """Return `file:line` of the card, for 'first at' notes."""
        loc = self.loc()
        return f"{loc.file}:{loc.line}"

    def text(self, field: str) -> str:
        """Return a field as text ('' when absent or empty)."""
        value = self.fields.get(field)
        return "" if value is None else str(value).strip()


def load(game: GameDir, header: Header, report: Report, icons: Collection[str]) -> DeckGame | None:
    """Load every deck of the game; report every problem (all decks, all cards) and return None on any."""
    g = game.sources["game.yaml"]
    data = g.data if isinstance(g.data, dict) else {}
    loader = _Loader(game, report, set(icons))
    decks = []
    seen: dict[str, int] = {}  # deck id -> its line, for "first at"
    for index, entry in enumerate(_list(data.get("decks"))):
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            where = g.loc(("decks", index, "id"))
            if entry["id"] in seen:
                report.error(
                    "S006",
                    f"deck id '{entry['id']}' is used twice (first at {where.file}:{seen[entry['id']]})",
                    path=f"decks[{index}].id",
                    loc=where,
                    hint="every deck needs its own id",
                )
                continue
            seen[entry["id"]] = where.line
        if isinstance(entry, dict):
            deck = loader.deck(entry, ("decks", index))
            if deck is not None:
                decks.append(deck)
    total = sum(card.copies for deck in decks for card in deck.cards)
    if total > MAX_CARDS:
        report.error(
            "S004", f"the game prints {total} cards; the limit is {MAX_CARDS}", path="decks", loc=g.loc(("decks",))
        )
    boards = []
    for index, entry in enumerate(_list(data.get("boards"))):
        if isinstance(entry, dict):
            board = loader.board(entry, ("boards", index))
            if board is not None:
                boards.append(board)
    if not report.ok():
        return None
    style: dict[str, Any] = data["style"] if isinstance(data.get("style"), dict) else {}
    return DeckGame(header.title, header.tagline, dict(style), tuple(decks), tuple(boards))


class _Loader:
    """Checks decks and cards against each other, the templates and the icons; remembers ids across decks."""

    def __init__(self, game: GameDir, report: Report, icons: set[str]):
        self.game, self.report, self.icons = game, report, icons
        self.g = game.sources["game.yaml"]
        self.templates = Templates(game.layout_dirs(), game.root)
        self.ids: dict[str, Record] = {}
        self._uses: dict[str, Uses] = {}

    # -- decks ----------------------------------------------------------------------------------------------

    def deck(self, entry: dict[str, Any], path: KeyPath) -> Deck | None:
        """Return one deck, or None when it cannot even be read (its problems are reported)."""
        deck_id: str = entry["id"] if isinstance(entry.get("id"), str) else ""
        size = self._size(entry, path)
        front = self._template(entry.get("template"), path + ("template",))
        back_spec = entry.get("back")
        back_path = path + ("back",) + (("template",) if isinstance(back_spec, dict) else ())
        back_name = back_spec.get("template") if isinstance(back_spec, dict) else back_spec
        back = self._template(back_name, back_path)
        show = tuple(back_spec.get("show", ())) if isinstance(back_spec, dict) else ()
        per_card = entry.get("backs") == "per-card"
        if show and not per_card:
            self.report.error(
                "S004",
                f"deck '{deck_id}' shares one back, so its back shows no card fields",
                path=format_path(path + ("back", "show")),
                loc=self.g.loc(path + ("back", "show")),
                hint="set `backs: per-card` on the deck when its backs differ (they then give the card away)",
            )
        records = self._records(entry.get("cards"), path + ("cards",), entry.get("sheet"), path + ("sheet",))
        if records is None:
            return None
        if not records and self.report.ok():
            self.report.error(
                "S004",
                f"deck '{deck_id}' has no cards",
                path=format_path(path + ("cards",)),
                loc=self.g.loc(path + ("cards",)),
                hint="add a row per card below the header (or a card to the list)",
            )
        required = ["name", *(f for f in _list(entry.get("required")) if isinstance(f, str))]
        markup = frozenset(f for f in _list(entry.get("markup")) if isinstance(f, str))
        if records and records[0].table:
            table = cast(tablesrc.Table, records[0].source)
            missing = self._columns(table, records, front, show, required, deck_id)
            self._markup(table, _list(entry.get("markup")), path + ("markup",), missing)
        cards = []
        for record in records:
            card = self._card(record, deck_id, front, Back(back or "", show), per_card, required, markup)
            if card is not None:
                cards.append(card)
        untemplated = [r for r in records if not r.text("template")]
        if "template" not in entry and untemplated:
            self.report.error(
                "S002",
                f"deck '{deck_id}' has no template, and card '{untemplated[0].text('name')}' names none",
                path=format_path(path),
                loc=self.g.loc(path + ("id",)),
                hint="give the deck `template: <front>.yaml.j2`, or every card a template field",
            )
        if size is None or back is None or (front is None and untemplated):
            return None
        name: str = entry["name"] if isinstance(entry.get("name"), str) else deck_id
        size_at = self.g.loc(path + ("size",)) if "size" in entry else None
        shape = entry["shape"] if entry.get("shape") in SHAPES else "rectangle"
        return Deck(deck_id, name, size, per_card, tuple(cards), size_at, shape)

    def board(self, entry: dict[str, Any], path: KeyPath) -> Board | None:
        """Return a board (a page of its own), or None when its template is missing (reported)."""
        template = self._template(entry.get("template"), path + ("template",))
        if template is None:
            return None
        board_id: str = entry["id"] if isinstance(entry.get("id"), str) else ""
        name: str = entry["name"] if isinstance(entry.get("name"), str) else board_id
        copies = entry["copies"] if isinstance(entry.get("copies"), int) else 1
        landscape = entry.get("orientation", "landscape") == "landscape"
        size = None
        if "size" in entry:
            parsed = self._size(entry, path, MAX_BOARD)
            if parsed is None:
                return None
            size = (parsed.w, parsed.h)
        return Board(board_id, name, template, landscape, copies, size)

    def _size(self, entry: dict[str, Any], path: KeyPath, most: float | None = None) -> CardSize | None:
        try:
            return parse_size(entry.get("size", "poker"), *(() if most is None else (most,)))
        except SizeError as exc:
            where = path + ("size",)
            if exc.key and isinstance(entry.get("size"), dict) and exc.key in entry["size"]:
                where += (exc.key,)
            self.report.error("S004", exc.message, path=format_path(where), loc=self.g.loc(where), hint=exc.hint)
            return None

    def _template(self, name: object, path: KeyPath, record: Record | None = None) -> str | None:
        """Return a template name that exists on the game's layout path; report one that does not."""
        if not isinstance(name, str) or not name.strip():
            return None
        name = name.strip()
        if self.templates.source_of(name) is not None:
            return name
        if self.templates.refusal(name, self.report):  # there, but too big, not text or a loop: said at it
            return None
        own = [f for f in self.templates.folders if f.name != "common"]  # cover and sheet furniture are no cards
        known = sorted({p.name for folder in own for p in folder.glob("*.j2") if not p.name.startswith("macros")})
        searched = ", ".join(self.templates.display(str(f)) for f in self.templates.folders)
        self.report.error(
            "S005",
            f"unknown template '{name}'",
            path=record.where(path[-1]) if record else format_path(path),
            loc=record.loc(path[-1]) if record else self.g.loc(path),
            hint=did_you_mean(name, known) or f"templates are .j2 files in {searched}",
        )
        return None

    def uses(self, template: str | None) -> Uses:
        """Return the fields a template reads (cached per template)."""
        if not template:
            return Uses()
        if template not in self._uses:
            self._uses[template] = template_uses(self.templates, template)
        return self._uses[template]

    # -- where the cards come from --------------------------------------------------------------------------

    def _records(self, cards: Any, path: KeyPath, sheet: Any = None, sheet_path: KeyPath = ()) -> list[Record] | None:
        """Return the deck's cards as records, from a file it names (a sheet of a spreadsheet) or its own list."""
        if isinstance(cards, list):
            return [Record(c, self.g, path + (i,), False) for i, c in enumerate(cards) if isinstance(c, dict)]
        if not isinstance(cards, str):
            return None  # the schema said why
        file = self.game.resolve(cards, self.report, self.g.loc(path), format_path(path))
        if file is None:
            return None
        relative = Path(cards).as_posix()
        if not file.is_file():
            self.report.error(
                "Y004",
                f"file not found: {self.game.display(relative)}",
                path=format_path(path),
                loc=self.g.loc(path),
                hint="name a file in the game folder, relative to it",
            )
            return None
        if relative.endswith(".csv"):
            if relative not in self.game.sources:
                self.game.sources[relative] = tablesrc.load_file(file, self.game.shown(file), self.report)
                self._edit(relative)
            table = self.game.sources[relative]
            return [Record(row, table, (i,), True, relative) for i, row in enumerate(table.data)]
        if sheetsrc.is_spreadsheet(relative):
            name = sheet if isinstance(sheet, str) else None
            key = f"{relative}!{name}" if name else relative  # two decks may read two sheets of one workbook
            if key not in self.game.sources:
                asked = self.g.loc(sheet_path) if name else None
                self.game.sources[key] = sheetsrc.load_file(
                    file, self.game.shown(file), self.report, sheet=name, asked_at=asked
                )
                self._edit(key)
            table = self.game.sources[key]
            return [Record(row, table, (i,), True, key) for i, row in enumerate(table.data)]
        source = self.game.load(relative, "deck-cards", self.report)
        rows = source.data if isinstance(source.data, list) else []
        return [Record(c, source, (i,), False, relative) for i, c in enumerate(rows) if isinstance(c, dict)]

    def _edit(self, name: str) -> None:
        """Set the values a caller edits in a table (a sweep's, the pseudo-locale's) before any check reads it."""
        self.game.edit(name, self.report)

    def _columns(
        self,
        table: tablesrc.Table,
        records: list[Record],
        front: str | None,
        show: tuple[str, ...],
        required: list[str],
        deck_id: str,
    ) -> set[str]:
        """Check a CSV's header once: every column a template reads, the deck requires or its back shows.

        Return the columns reported missing.
        """
        columns = set(getattr(table, "columns", ()))
        needs: dict[str, str] = {}
        # the deck's front, then each template a card names, in the order the cards name them
        templates = [front, *dict.fromkeys(r.text("template") for r in records if r.text("template"))]
        for template in templates:
            uses = self.uses(template)
            for name in sorted(uses.required - set(COMPUTED)):
                owner = "rich" if name in uses.rich and name not in uses.card else "card"
                needs.setdefault(name, f"the template {template} reads {owner}.{name}")
        for name in required:
            needs.setdefault(name, f"deck '{deck_id}' requires it")
        for name in show:
            needs.setdefault(name, "the deck's back shows it")
        reads = self._reads(templates, show)
        known = front is not None and all(t is not None and self.templates.source_of(t) is not None for t in templates)
        for name in sorted(columns - reads if known else ()):  # an unknown template reads nothing known
            self._unread(name, reads, "column", table.column_loc(name), name)
        missing = set()
        for name, why in needs.items():
            if name not in columns:
                missing.add(name)
                self.report.error(
                    "S002",
                    f"no column '{name}' ({why})",
                    loc=table.column_loc(name),
                    hint=did_you_mean(name, columns) or f"add a column '{name}' to the header row",
                )
        return missing

    def _markup(self, table: tablesrc.Table, markup: list[Any], path: KeyPath, missing: set[str]) -> None:
        """Report a column the deck declares as markup that its table does not have (and no other check said so)."""
        columns = {c for c in table.columns if c}
        for index, name in enumerate(markup):
            if isinstance(name, str) and name not in columns and name not in missing:
                where = path + (index,)
                self.report.error(
                    "S002",
                    f"`markup` names '{name}', which is no column of {table.display}",
                    path=format_path(where),
                    loc=self.g.loc(where),
                    hint=did_you_mean(name, columns) or "list the columns whose cells are markup (<b>, <i>, <br> …)",
                )

    # -- one card -----------------------------------------------------------------------------------------

    def _card(
        self,
        record: Record,
        deck_id: str,
        front: str | None,
        back: Back,
        per_card: bool,
        required: list[str],
        markup: frozenset[str] = frozenset(),
    ) -> DeckCard | None:
        report, before = self.report, len(self.report.errors)
        columns = set(getattr(record.source, "columns", ())) if record.table else None
        for name in required:
            if columns is not None and name not in columns:
                continue  # reported once, at the header
            if not record.text(name):
                message = (
                    f"empty cell in required column '{name}'" if record.table else f"missing required key '{name}'"
                )
                report.error("S002", message, path=record.where(name), loc=record.loc(name))
        card_id = self._id(record)
        copies = self._copies(record)
        template = front
        if record.text("template"):
            template = self._template(record.text("template"), ("template",), record)
        card_back = back
        if record.text("back"):
            if not per_card:
                report.error(
                    "S004",
                    f"deck '{deck_id}' shares one back, so a card cannot name its own",
                    path=record.where("back"),
                    loc=record.loc("back"),
                    hint="set `backs: per-card` on the deck when its backs differ (they then give the card away)",
                )
            else:
                chosen = self._template(record.text("back"), ("back",), record)
                card_back = Back(chosen or "", back.show)
        if not record.table:
            self._keys(record, template, card_back)
        rich = {  # a table's cells print < > & as written unless the deck declares their column as markup
            k: to_markup(v, record.table and k not in markup)
            for k, v in record.fields.items()
            if k not in SPECIAL and not isinstance(v, dict)
        }
        self._rich(record, rich, template, card_back)
        if len(report.errors) > before or card_id is None or copies is None or template is None:
            return None
        fields = dict(record.fields)
        fields.update(id=card_id, name=record.text("name"), copies=copies)
        return DeckCard(
            card_id,
            record.text("name"),
            copies,
            template,
            card_back,
            fields,
            card_art(record.fields.get("art") or None, card_id),
            rich,
            (record.file, record.path),
        )

    def _id(self, record: Record) -> str | None:
        """Return the card's id (its own, or made from its name), reporting a bad or repeated one."""
        own = record.text("id")
        field = "id" if own else "name"
        if own and not ID.match(own):
            self.report.error(
                "S004",
                f"'{own}' is not an id",
                path=record.where("id"),
                loc=record.loc("id"),
                hint="ids are lower-case letters, digits and hyphens, starting with a letter or digit",
            )
            return None
        card_id = own or slug(record.text("name"))
        if not card_id:
            if record.text("name"):
                self.report.error(
                    "S004",
                    f"cannot make an id from the name '{record.text('name')}'",
                    path=record.where("name"),
                    loc=record.loc("name"),
                    hint="give the card an id (lower-case letters, digits and hyphens)",
                )
            return None
        first = self.ids.get(card_id)
        if first is not None:
            made = "" if own else " (made from the name)"
            self.report.error(
                "S006",
                f"id '{card_id}'{made} is used twice (first at {first.line()})",
                path=record.where(field),
                loc=record.loc(field),
                hint="every card needs its own id; give one of them an id" + ("" if own else " column or key"),
            )
            return None
        self.ids[card_id] = record
        if record.table:
            record.fields.setdefault("id", card_id)  # art warnings find a card by its id, made or written
        return card_id

    def _copies(self, record: Record) -> int | None:
        value = record.fields.get("copies")
        if value is None or (isinstance(value, str) and not value.strip()):
            return 1
        text = str(value).strip()
        if isinstance(value, bool) or not re.fullmatch(r"\d{1,6}", text) or not 1 <= int(text) <= MAX_COPIES:
            shown = f"'{value}'" if isinstance(value, str) else str(value).lower()
            self.report.error(
                "S004",
                f"must be a whole number from 1 to {MAX_COPIES}, got {shown}",
                path=record.where("copies"),
                loc=record.loc("copies"),
            )
            return None
        return int(text)

    def _keys(self, record: Record, template: str | None, back: Back) -> None:
        """Report a field a YAML card lacks but its templates read or its back shows."""
        uses = self.uses(template)
        reads = self._reads([template], back.show)
        unread = {f for f in record.fields if FIELD.match(f)} - reads  # a bad field name has its own error
        for name in sorted(unread if template else ()):  # an unknown template reads nothing known
            self._unread(name, reads, "key", record.source.loc(record.path + (name,), key=True), record.where(name))
        needs = sorted((uses.required - set(COMPUTED)) | set(back.show))
        for name in needs:
            if name not in record.fields:
                owner = "rich" if name in uses.rich and name not in uses.card else "card"
                why = f"the template {template} reads {owner}.{name}" if name not in back.show else "its back shows it"
                self.report.error(
                    "S002",
                    f"missing key '{name}' ({why})",
                    path=record.where(),
                    loc=record.loc(),
                    hint=did_you_mean(name, record.fields),
                )

    def _reads(self, templates: list[str | None], show: Collection[str]) -> set[str]:
        """Return every field the cards' templates read, the back shows or cardpress itself uses."""
        reads = {*COMPUTED, *SPECIAL, *show}
        for template in templates:
            uses = self.uses(template)
            reads |= uses.card | uses.rich | uses.required
        return reads

    def _unread(self, name: str, reads: set[str], what: str, loc: Location | None, path: str) -> None:
        """Warn of a field nothing reads when its name is close to one that is read: most likely a typo."""
        hint = did_you_mean(name, reads)
        if hint:
            self.report.warning(
                "S003",
                f"{what} '{name}' is read by no template, and cardpress does not use it",
                path=path,
                loc=loc,
                hint=hint,
            )

    def _rich(self, record: Record, rich: dict[str, str], template: str | None, back: Back) -> None:
        """Check the markup and icons of every field a template sets as rich text."""
        fields = set(self.uses(template).rich) | (set(self.uses(back.template).rich) & set(back.show))
        for name in sorted(fields & set(rich)):
            for code, message, hint in problems(rich[name], self.icons):
                self.report.error(code, message, path=record.where(name), loc=record.loc(name), hint=hint)


def slug(text: str) -> str:
    """Return an id made from a name: 'Red Fox!' -> 'red-fox' (accents dropped, at most 48 characters)."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _NOT_ID.sub("-", plain.lower()).strip("-")[:48].strip("-")


_NOT_ID = re.compile(r"[^a-z0-9]+")  # compiled once: every card without an id of its own is named by it


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
