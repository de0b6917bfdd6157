"""Read and write a translation's catalogue, messages.po, a gettext PO file (through Babel), held to its base.

Every problem is located in the PO file: a syntax error at its line, a message the base prints but the file
lacks (I002, at the entry before which it belongs), one the base does not print (I003, with the nearest
msgid), a translation whose slots or markup tags differ from its msgid (I004, I006). An empty or fuzzy msgstr
prints the English, as gettext does, and is a warning.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError, PoFileParser, write_po

from ..diagnostics import Location, Report, did_you_mean
from ..source import safefile
from ..source.digest import text_digest
from .catalogue import NUMBERS, NUMBERS_CONTEXT, Catalogue, FormError, Message, slots

CATALOGUE_FILE = "messages.po"
MAX_BYTES = 512_000  # a game's labels and sentence forms are a few kB; refuse anything that looks like an attack
MAX_MESSAGE = 2_000  # characters in one translation: a label or a sentence
MAX_GAPS = 3  # `…` in one rulebook form: each is a bounded wildcard, so a few keep the search fast
TAG = re.compile(r"</?[a-z]+(?:\s[^<>]*)?>")  # the layout markup a message may carry: <b>, </i>, <icon feed>, <br>


def read(path: Path, display: str, language: str, base: Sequence[Message], report: Report) -> Catalogue | None:
    """Return the catalogue in `path`, held to the messages its base prints; None after an error in it."""
    before = len(report.errors)
    where = Location(display, 1, 1)
    try:
        text = safefile.read_text(path, MAX_BYTES)
    except safefile.Refused as exc:
        exc.report(report, display)
        return None
    lines = text.splitlines()

    def loc(line: int, col: int = 1) -> Location:
        return Location(display, line, col, lines[line - 1] if 0 < line <= len(lines) else "")

    po = Catalog()
    parser = _Parser(po, ignore_obsolete=True, abort_invalid=True)
    try:
        parser.parse(io.StringIO(text))
    except PoFileError as exc:
        line = (getattr(exc, "lineno", 0) or 0) + 1  # Babel counts this one from 0
        said = re.sub(r" on \d+$", "", str(exc))
        report.error(
            "I001", f"not a readable PO file: {said}", loc=loc(line), hint="see the GNU gettext manual, PO Files"
        )
        return None
    except (ValueError, UnicodeError) as exc:  # a header Babel cannot parse (Plural-Forms, charset)
        report.error("I001", f"not a readable PO file: {exc}", loc=where)
        return None
    for key, at, earlier in parser.twice:
        report.error(
            "I003",
            f"{_name(key)} has a second entry (the first is at line {earlier})",
            loc=loc(at),
            hint="keep one: gettext reads only one translation of a message",
        )
    said = str(po.locale) if po.locale is not None else ""
    if said and said.replace("_", "-").casefold() != language.replace("_", "-").casefold():
        report.error(
            "I005",
            f"the catalogue's Language header says '{said}', but game.yaml says language: {language}",
            loc=loc(_line_of(lines, "Language:") or 1),
            hint="make the two agree",
        )
    wanted = {m.key: m for m in base}
    found: dict[tuple[str, str], str] = {}
    entries: list[tuple[tuple[str, str], int]] = []  # (key, msgid line), in file order
    pending: dict[str, list[tuple[tuple[str, str], int]]] = {}  # untranslated or fuzzy: said once, with a count
    for entry in po:
        if not entry.id or not isinstance(entry.id, str):
            continue  # the header; plural entries never occur in a cardpress catalogue (checked as extras below)
        key = (entry.context or "", entry.id)
        line = entry.lineno or 1
        entries.append((key, line))
        msgstr_line = _msgstr_line(lines, line)
        if key not in wanted:
            near = did_you_mean(entry.id, [k[1] for k in wanted if k[0] == key[0]] or [k[1] for k in wanted])
            report.error(
                "I003",
                f"the base prints no message {_name(key)}",
                loc=loc(line),
                hint=near or "remove the entry (the base may have changed its wording: translate its new msgid)",
            )
            continue
        translation = entry.string if isinstance(entry.string, str) else ""
        if not translation or entry.fuzzy:
            pending.setdefault("is marked fuzzy" if translation else "has no translation yet", []).append(
                (key, msgstr_line)
            )
            continue
        if _held(key, translation, msgstr_line, loc, report):
            found[key] = translation
    for why, keys in pending.items():
        (first, line), more = keys[0], len(keys) - 1
        others = f" (and {more} more message{'s' if more > 1 else ''})" if more else ""
        report.warning("I002", f"{_name(first)}{others} {why}: printed in English", loc=loc(line))
    lineof = dict(entries)
    for i, message in enumerate(base):
        if message.key in lineof:
            continue
        before_it = next((lineof[m.key] for m in reversed(base[:i]) if m.key in lineof), None)
        at = _entry_end(lines, before_it) if before_it else 1
        report.error(
            "I002",
            f"no entry for {_name(message.key)}, which the base prints",
            loc=loc(at),
            hint="add it: " + _entry_text(message).replace("\n", " / "),
        )
    if len(report.errors) != before:
        return None
    return Catalogue(language, found, text_digest(text))


class _Parser(PoFileParser):
    """Babel's PO parser, noting each message given twice (Babel keeps one without a word)."""

    def __init__(self, catalog: Catalog, ignore_obsolete: bool, abort_invalid: bool):
        super().__init__(catalog, ignore_obsolete, abort_invalid=abort_invalid)
        self.seen: dict[tuple[str, str], int] = {}
        self.twice: list[tuple[tuple[str, str], int, int]] = []  # (key, its line, the first entry's line)

    def _add_message(self) -> None:
        if len(self.messages) == 1 and not self.obsolete:
            key = (self.context.denormalize() if self.context else "", self.messages[0].denormalize())
            line = self.offset + 1
            if key in self.seen:
                self.twice.append((key, line, self.seen[key]))
            else:
                self.seen[key] = line
        super()._add_message()


def _held(key: tuple[str, str], translation: str, line: int, loc: Callable[..., Location], report: Report) -> bool:
    """Check that a translation keeps its msgid's slots and markup; report where it does not."""
    try:
        theirs = slots(translation)
    except FormError as exc:
        report.error("I004", f"the translation of {_name(key)}: {exc}", loc=loc(line))
        return False
    ours = slots(key[1])
    gaps = translation.count("…")
    if len(translation) > MAX_MESSAGE or gaps > max(MAX_GAPS, key[1].count("…")):
        too = f"is longer than {MAX_MESSAGE} characters" if len(translation) > MAX_MESSAGE else f"has {gaps} …"
        report.error(
            "I004",
            f"the translation of {_name(key)} {too}",
            loc=loc(line),
            hint=f"a message is a label or one sentence; a rulebook form skips words with at most {MAX_GAPS} …",
        )
        return False
    if sorted(set(theirs)) != sorted(set(ours)):
        extra = sorted(set(theirs) - set(ours))
        gone = sorted(set(ours) - set(theirs))
        text = loc(line).text
        col = text.find("{" + extra[0] + "}") + 1 if extra and "{" + extra[0] + "}" in text else 1
        said = "; ".join(
            x
            for x in (
                f"it has {', '.join('{' + s + '}' for s in extra)}, which the msgid has not" if extra else "",
                f"it lacks {', '.join('{' + s + '}' for s in gone)}" if gone else "",
            )
            if x
        )
        report.error(
            "I004",
            f"the translation of {_name(key)} does not keep its slots: {said}",
            loc=loc(line, max(col, 1)),
            hint=f"a translation uses exactly the msgid's slots: {', '.join('{' + s + '}' for s in ours) or 'none'}",
        )
        return False
    if key == (NUMBERS_CONTEXT, NUMBERS) and len(translation.split()) != len(NUMBERS.split()):
        report.error(
            "I004",
            f"the number words name {len(translation.split())} numbers, not the {len(NUMBERS.split())} "
            "from zero to twenty",
            loc=loc(line),
            hint="one word per number, separated by spaces; `un/une` gives two spellings of one",
        )
        return False
    if sorted(TAG.findall(translation)) != sorted(TAG.findall(key[1])):
        report.error(
            "I006",
            f"the translation of {_name(key)} has other markup tags than its msgid "
            f"({' '.join(TAG.findall(key[1])) or 'none'})",
            loc=loc(line),
            hint="keep each <b>, <i>, <br> and <icon …> of the msgid, around the words they belong to",
        )
        return False
    return True


def _name(key: tuple[str, str]) -> str:
    """Return `"RUN: {effect}." (context "card")` for messages."""
    text = key[1] if len(key[1]) <= 70 else key[1][:67] + "…"
    return f'"{text}"' + (f' (msgctxt "{key[0]}")' if key[0] else "")


def _line_of(lines: list[str], prefix: str) -> int | None:
    return next((i + 1 for i, line in enumerate(lines) if prefix in line), None)


def _msgstr_line(lines: list[str], msgid_line: int) -> int:
    """Return the line of the msgstr that follows the msgid at `msgid_line`."""
    for i in range(msgid_line - 1, len(lines)):
        if lines[i].startswith("msgstr"):
            return i + 1
    return msgid_line


def _entry_end(lines: list[str], msgid_line: int) -> int:
    """Return the last line of the entry whose msgid is at `msgid_line` (its msgstr and continuation lines)."""
    i = _msgstr_line(lines, msgid_line)
    while i < len(lines) and lines[i].startswith('"'):
        i += 1
    return i


def _entry_text(message: Message) -> str:
    """Return the PO entry for a message, as `new-translation` writes it."""
    catalog = Catalog()
    catalog.add(message.id, "", context=message.context or None)
    out = io.BytesIO()
    write_po(out, catalog, omit_header=True, width=0)
    return out.getvalue().decode("utf-8").strip()


def write(language: str, project: str, messages: Sequence[Message], translations: dict[tuple[str, str], str]) -> bytes:
    """Return messages.po for a language: every message with its note and source, translated where known.

    Dates come from SOURCE_DATE_EPOCH (else 1970): the same base gives the same file."""
    stamp = datetime.fromtimestamp(int(os.environ.get("SOURCE_DATE_EPOCH", "0") or 0), UTC)
    catalog = Catalog(
        locale=language.replace("-", "_"),
        project=project,
        version="1",
        creation_date=stamp,
        revision_date=stamp,
        fuzzy=False,
        charset="utf-8",
    )
    name = _language_name(language)
    catalog.header_comment = (
        f'# {name} translation of {project}, for cardpress (see its manual, "Translations").\n'
        "# Translate each msgstr, keeping every {slot} and markup tag of its msgid; an empty one prints in English.\n"
        "# `cardpress validate` reads the card texts back through these forms, so a wrong number is caught."
    )
    catalog.msgid_bugs_address = ""
    catalog.last_translator = ""
    catalog.language_team = ""
    for m in messages:
        catalog.add(
            m.id,
            translations.get(m.key, ""),
            locations=[_location(w) for w in m.where],
            auto_comments=[m.comment] if m.comment else [],
            flags=("python-brace-format",) if m.slots else (),
            context=m.context or None,
        )
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=False)
    return out.getvalue()


def _language_name(language: str) -> str:
    try:
        return str(Locale.parse(language.replace("-", "_")).english_name)
    except (ValueError, UnknownLocaleError):
        return language


def _location(where: str) -> tuple[str, int]:
    path, _, line = where.rpartition(":")
    return (path, int(line)) if line.isdigit() else (where, 1)
