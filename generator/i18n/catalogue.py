"""A translation's words: the messages a game prints and what a catalogue says for each, as text and as patterns.

gettext's model (https://www.gnu.org/software/gettext/manual/gettext.html#PO-Files): the English text is the
message id (msgid), a context (msgctxt) tells two uses of the same words apart, and a translation (msgstr) keeps
every `{slot}` of its msgid (Python's brace syntax, gettext's `python-brace-format`). English needs no
catalogue: `ENGLISH` prints each msgid as written, so a game without a translation prints what it always did.
The same forms read printed text back (`Catalogue.pattern`), so a validator checks a translation's numbers
exactly as it checks the English ones.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

NUMBERS_CONTEXT = "numbers"
# How a rulebook or a card spells 0 to 20; a translation gives its own words (`un/une` for two spellings of one).
NUMBERS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
)
_FORMATTER = string.Formatter()
GAP = r"[^.]{0,200}?"  # `…` in a rulebook form: the rest of a sentence, bounded so a hostile line stays fast


class FormError(ValueError):
    """A form whose braces do not parse, or whose slot is not a plain name."""


def slots(text: str) -> tuple[str, ...]:
    """Return the slot names of a form in order (`{amounts}` → amounts); raise FormError for a bad brace."""
    return tuple(name for _, name in _pieces(text) if name is not None)


def _pieces(text: str) -> list[tuple[str, str | None]]:
    """Split a form into (literal text, slot name or None) pieces; `{{` and `}}` are literal braces."""
    out: list[tuple[str, str | None]] = []
    try:
        parsed = list(_FORMATTER.parse(text))
    except ValueError as exc:
        raise FormError(f"{exc} (write {{{{ and }}}} for a literal brace)") from None
    for literal, name, spec, conversion in parsed:
        if name is not None and (not name.isidentifier() or spec or conversion):
            raise FormError(
                f"'{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}' "
                "is not a slot: a slot is a plain name in braces, like {amounts}"
            )
        out.append((literal, name))
    return out


def fill(form: str, values: Mapping[str, object]) -> str:
    """Return `form` with each slot replaced by its value (no attribute access, no format specs)."""
    return "".join(map(str, fill_parts(form, values)))


def fill_parts(form: str, values: Mapping[str, object]) -> list[object]:
    """Return the pieces `fill` joins: the literal text and, between, each slot's value as it is."""
    parts: list[object] = []
    for literal, name in _pieces(form):
        parts.append(literal)
        if name is not None:
            parts.append(values[name])
    return parts


@dataclass(frozen=True)
class Message:
    """One printed string of a game: its English form (the msgid), its context and a note for translators."""

    id: str
    context: str = ""
    comment: str = ""
    where: tuple[str, ...] = ()  # source references, `layouts/pocket-foundry/mat.yaml.j2:19`

    @property
    def key(self) -> tuple[str, str]:
        """Return (context, msgid): what a catalogue is keyed by."""
        return (self.context, self.id)

    @property
    def slots(self) -> tuple[str, ...]:
        """Return the slot names its form holds."""
        return slots(self.id)


@dataclass(frozen=True)
class Catalogue:
    """The strings of one language, keyed by (context, English msgid); a missing one prints as the msgid."""

    language: str = "en"
    strings: Mapping[tuple[str, str], str] = field(default_factory=dict)
    digest: str = ""  # of the file it was read from: a face drawn from it changes when it does

    @property
    def translated(self) -> bool:
        """Return True for anything but the identity catalogue of the base language."""
        return bool(self.strings)

    def text(self, msgid: str, context: str = "") -> str:
        """Return the translation of a message, or its msgid."""
        return self.strings.get((context, msgid)) or msgid

    def form(self, msgid: str, context: str = "", /, **values: object) -> str:
        """Return a message filled with its slots' values."""
        return fill(self.text(msgid, context), values)

    def parts(self, msgid: str, context: str = "", /, **values: object) -> list[object]:
        """Return the pieces `form` joins (see fill_parts)."""
        return fill_parts(self.text(msgid, context), values)

    def singular(self, n: int) -> bool:
        """Return True when `n` of something takes the singular: 1 in English, 0 and 1 in French (CLDR's rules)."""
        if not self.translated:
            return n == 1
        return self._plural(n) == "one"

    @cached_property
    def _plural(self) -> Callable[[int], str]:
        from babel import Locale, UnknownLocaleError  # here: only a translation needs CLDR's rules

        try:
            return Locale.parse(self.language.replace("-", "_")).plural_form
        except (ValueError, UnknownLocaleError):
            return lambda n: "one" if n == 1 else "other"

    def decimal(self, value: object) -> str:
        """Return a number as this language writes it (`63.5`, `63,5` in French); anything else as text."""
        if not self.translated or isinstance(value, bool) or not isinstance(value, (int, float)):
            return str(value)
        from babel import UnknownLocaleError
        from babel.numbers import format_decimal

        try:
            return str(format_decimal(value, locale=self.language.replace("-", "_")))
        except (ValueError, UnknownLocaleError):
            return str(value)

    # -- numbers ------------------------------------------------------------------------------------------

    @cached_property
    def numbers(self) -> tuple[tuple[str, ...], ...]:
        """Return, for 0 to 20, the ways this language spells it (the first is the one printed)."""
        words = self.text(NUMBERS, NUMBERS_CONTEXT).split()
        return tuple(tuple(w for w in word.split("/") if w) for word in words)

    def spell(self, n: int) -> str:
        """Return `six` for 6 (digits past twenty)."""
        return self.numbers[n][0] if 0 <= n < len(self.numbers) else str(n)

    def number(self, word: str) -> int:
        """Return 6 for `6`, `six` or `Six`; raise ValueError for anything else."""
        w = word.strip().casefold()
        if w.isdigit():
            return int(w)
        for n, spellings in enumerate(self.numbers):
            if w in (s.casefold() for s in spellings):
                return n
        raise ValueError(f"'{word}' is not a number")

    @cached_property
    def num(self) -> str:
        """Return the pattern of a number as printed: digits or a word, ending there (`fourteen` is not `four`)."""
        words = sorted({s for spellings in self.numbers for s in spellings}, key=len, reverse=True)
        return r"(?:\d{1,3}|" + "|".join(map(re.escape, words)) + r")\b"

    # -- reading printed text back --------------------------------------------------------------------------

    def pattern(
        self, msgid: str, context: str = "", /, kinds: Mapping[str, str] | None = None, gaps: bool = False
    ) -> re.Pattern[str]:
        """Return a pattern that reads a printed instance of a message, each slot a named group.

        A slot matches `kinds[slot]` (a regex; `N` for a number), else any text. Spaces in the form match any
        run of spaces (none beside punctuation, so `COÛT :` reads `COÛT:` too); case is ignored. With `gaps`, a
        `…` in the form stands for any words of the same sentence (a rulebook's form quotes only what it reads).
        """
        out = [r"\s*"]
        pieces = _pieces(self.text(msgid, context))
        for literal, name in pieces:
            if gaps:
                out.append(GAP.join(_literal(part) for part in literal.split("…")))
            else:
                out.append(_literal(literal))
            if name is not None:
                kind = (kinds or {}).get(name, ".+?")
                out.append(f"(?P<{name}>{self.num if kind == 'N' else kind})")
        out.append(r"\s*")
        return re.compile("".join(out), re.IGNORECASE)


def _literal(text: str) -> str:
    """Return a pattern for a form's literal words: a space between two words is needed, any other optional."""
    parts = re.split(r"(\s+)", text)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(re.escape(part))
        else:
            left, right = parts[i - 1][-1:], parts[i + 1][:1]
            out.append(r"\s+" if left.isalnum() and right.isalnum() else r"\s*")
    return "".join(out)


ENGLISH = Catalogue()
