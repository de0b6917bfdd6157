"""Set rich text in a box: line breaking, inline icons, font fallback and shrink-to-fit."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

from ..layout import cpu
from ..layout.markup import Run
from ..layout.units import PT_PER_MM
from .fonts import FontSet

ASCENT, DESCENT = 0.86, 0.24  # ems above and below the baseline: the same for every font, so
# boxes with the same top and size share a baseline whatever their font
ICON_EM = 0.95  # inline icon height as a fraction of the font size
ICON_GAP = 0.2  # space after an inline icon, in ems
STEP = 0.25  # shrink-to-fit step, in points


@dataclass(frozen=True)
class Piece:
    """Something drawn on a line: a text string in one font, or an icon."""

    x: float  # points from the line start
    width: float
    size: float
    colour: str | None
    text: str = ""
    font: str = ""
    icon: str | None = None


@dataclass(frozen=True)
class Line:
    """One set line."""

    pieces: tuple[Piece, ...]
    width: float


@dataclass(frozen=True)
class TextLayout:
    """Set text, ready to draw, and whether it fits its box."""

    lines: tuple[Line, ...]
    size: float
    line_height: float
    ascent: float  # points above the baseline of the first line
    height: float  # points from the top of the first line to the lowest descender
    overflow: str | None  # why the text does not fit, or None


def set_text(
    runs: list[Run],
    fonts: FontSet,
    *,
    family: str | None,
    size: float,
    min_size: float | None,
    width_mm: float,
    height_mm: float,
    leading: float = 1.2,
    max_lines: int | None = None,
) -> TextLayout:
    """Set `runs` at `size`, shrinking in small steps down to `min_size` until it fits the box."""
    width, height = width_mm * PT_PER_MM, height_mm * PT_PER_MM
    first = _set(runs, fonts, family, size, width, height, leading, max_lines)
    floor = min(size, min_size) if min_size else size
    if first.overflow is None or floor >= size:
        return first
    # Bigger text never takes fewer lines, so binary-search the largest step of STEP that fits.
    low, high = 0, int(round((size - floor) / STEP))  # steps down from `size`
    best = _set(runs, fonts, family, size - high * STEP, width, height, leading, max_lines)
    if best.overflow is not None:  # say that shrinking was tried, and how far
        return replace(best, overflow=f"{best.overflow}, even shrunk to the {best.size:g} pt minimum")
    while high - low > 1:
        middle = (low + high) // 2
        attempt = _set(runs, fonts, family, size - middle * STEP, width, height, leading, max_lines)
        if attempt.overflow is None:
            high, best = middle, attempt
        else:
            low = middle
    return best


@dataclass(frozen=True)  # shared between texts through the word memo: never changed once made
class _Atom:
    kind: str  # "word", "space", "glue" (a space that must not break), "icon", "break"
    width: float = 0.0
    text: str = ""
    font: str = ""
    size: float = 0.0
    colour: str | None = None
    icon: str | None = None


_BREAK = _Atom("break")
_BOXED = frozenset(("word", "icon", "glue"))  # atoms a line never breaks between
WORDS = 16384  # words kept measured (each with its font, size and colour): the rules text of a whole kit


def _atoms(runs: list[Run], fonts: FontSet, family: str | None, size: float) -> list[_Atom]:
    out: list[_Atom] = []
    for run in runs:
        if run.newline:
            out.append(_BREAK)
            continue
        style = run.style
        run_size = size * style.scale
        if run.icon:
            out.append(
                _Atom("icon", run_size * (ICON_EM + ICON_GAP), size=run_size, colour=style.colour, icon=run.icon)
            )
            continue
        font = fonts.resolve(family, style.bold, style.italic)
        space = _space(fonts, font, run_size, style.colour, style.nobreak)
        for i, word in enumerate(run.text.split(" ")):
            if i:
                out.append(space)
            out.extend(_word(fonts, word, font, run_size, style.colour, style.nobreak))
    return out


@lru_cache(maxsize=WORDS)  # the same words in the same font recur on card after card, set once
def _word(fonts: FontSet, word: str, font: str, size: float, colour: str | None, nobreak: bool) -> tuple[_Atom, ...]:
    """Return the atoms of one word (no spaces in it): its breakable units, each in the fonts that draw it."""
    out: list[_Atom] = []
    for n, unit in enumerate(_units(word) if word and not nobreak else (word,)):
        if n:  # a place to break inside a word of CJK text, which has no spaces (UAX #14)
            out.append(_Atom("space", 0.0, "", font, size, colour))
        for text, face in fonts.segments(unit, font) if unit else ():
            out.append(_Atom("word", fonts.width(text, face, size), text, face, size, colour))
    return tuple(out)


@lru_cache(maxsize=1024)
def _space(fonts: FontSet, font: str, size: float, colour: str | None, nobreak: bool) -> _Atom:
    """Return the atom of a space between two words of a run (glue where the run must not break)."""
    return _Atom("glue" if nobreak else "space", fonts.width(" ", font, size), " ", font, size, colour)


@lru_cache(maxsize=16384)
def _units(word: str) -> tuple[str, ...]:
    """Split a word holding wide (CJK) characters where a line may break; leave other words whole."""
    if word.isascii() or all(unicodedata.east_asian_width(ch) not in ("W", "F") for ch in word):  # ASCII is narrow
        return (word,)
    from uniseg.linebreak import line_break_units  # 40 ms to import: only when a text holds CJK

    return tuple(line_break_units(word))


def _set(
    runs: list[Run],
    fonts: FontSet,
    family: str | None,
    size: float,
    width: float,
    height: float,
    leading: float,
    max_lines: int | None,
) -> TextLayout:
    ascent, descent = ASCENT * size, DESCENT * size
    line_height = size * leading
    limit = width + 1e-6
    whole = _whole_lines(runs, fonts, family, size, limit)
    if whole is not None:
        cpu.tick(len(runs) // 16 + 1)
        return _layout(whole, size, line_height, ascent, descent, height, max_lines, None)

    lines: list[list[_Atom]] = [[]]
    line = lines[0]
    overflow = None
    pending: list[_Atom] = []  # spaces waiting to see whether the next word fits on this line
    waiting = 0.0  # their width, summed as sum() would: from 0, one by one
    used = 0.0  # the width of the last line so far (kept, not summed again: a long line stays linear)
    atoms = _atoms(runs, fonts, family, size)
    cpu.tick(len(atoms) // 16 + 1)
    i, count = 0, len(atoms)
    while i < count:
        atom = atoms[i]
        kind = atom.kind
        if kind == "break":
            line = []
            lines.append(line)
            pending, waiting, used = [], 0.0, 0.0
            i += 1
            continue
        if kind == "space":
            if line:
                pending.append(atom)
                waiting += atom.width
            i += 1
            continue
        # A box is a run of words and icons with no space between them: it never breaks.
        j = i + 1
        while j < count and atoms[j].kind in _BOXED:
            j += 1
        if j == i + 1:  # one atom, the most common box: its width, as the sum gives
            box_width = atom.width
        else:
            box_width = 0
            for a in atoms[i:j]:
                box_width += a.width
        if line and (used + waiting if pending else used) + box_width > limit:
            line = []
            lines.append(line)
            pending, waiting, used = [], 0.0, 0.0
        if box_width > limit and overflow is None:
            word = "".join(a.text for a in atoms[i:j]) or "an icon"
            overflow = f"'{word}' is wider than the box"
        if pending:  # one by one, in order: the same sum as the line's widths, bit for bit
            for placed in pending:
                used += placed.width
            line.extend(pending)
            pending, waiting = [], 0.0
        for n in range(i, j):
            placed = atoms[n]
            used += placed.width
            line.append(placed)
        i = j

    set_lines = tuple(_line(atoms) for atoms in lines)
    return _layout(set_lines, size, line_height, ascent, descent, height, max_lines, overflow)


def _layout(
    set_lines: tuple[Line, ...],
    size: float,
    line_height: float,
    ascent: float,
    descent: float,
    height: float,
    max_lines: int | None,
    overflow: str | None,
) -> TextLayout:
    """Return set lines as a layout, saying why they do not fit (too many, too tall) when nothing else has."""
    total = (len(set_lines) - 1) * line_height + ascent + descent
    if overflow is None and max_lines is not None and len(set_lines) > max_lines:
        overflow = f"needs {len(set_lines)} lines; at most {max_lines} allowed"
    if overflow is None and total > height + 0.01:
        overflow = (
            f"{len(set_lines)} line{'s' if len(set_lines) != 1 else ''} need "
            f"{total / PT_PER_MM:.1f} mm but the box is {height / PT_PER_MM:.1f} mm high"
        )
    return TextLayout(set_lines, size, line_height, ascent, total, overflow)


_EMPTY = Line((), 0.0)  # a line with nothing set on it: between two breaks


def _whole_lines(
    runs: list[Run], fonts: FontSet, family: str | None, size: float, limit: float
) -> tuple[Line, ...] | None:
    """Return the lines of text that is plain words between forced breaks, each line one run that fits (most
    card text, and every page's footer), as setting it atom by atom makes them; None for anything else."""
    lines: list[Line] = []
    current: Line | None = None
    for run in runs:
        if run.newline:
            lines.append(_EMPTY if current is None else current)
            current = None
        elif current is not None:  # a second run on one line (a change of style): set atom by atom
            return None
        else:
            current = _one_line(run, fonts, family, size, limit)
            if current is None:
                return None
    lines.append(_EMPTY if current is None else current)
    return tuple(lines)


def _one_line(run: Run, fonts: FontSet, family: str | None, size: float, limit: float) -> Line | None:
    """Return the line a run of plain words sets as when all of it fits on one: the line the atoms would make,
    without them. None for anything else: an icon, glue, a character its font lacks, a word wide text may break
    inside, a word or the whole too wide; those are set atom by atom."""
    style, text = run.style, run.text
    if run.icon or style.nobreak:
        return None
    wide = not text.isascii()  # then a word may hold CJK characters, where a line may break
    font = fonts.resolve(family, style.bold, style.italic)
    if not text.strip(" ") or not fonts.draws(text, font):
        return None
    run_size = size * style.scale
    space = fonts.advance(" ", font, run_size)  # each width as _word and _space measure it: the atoms' widths
    used = waiting = 0.0
    placed = False
    spaces = 0  # the spaces waiting to see whether the next word fits (none at the start of the line)
    for word in text.split(" "):
        if placed:  # a space counts only after the line's first word
            spaces += 1
            waiting += space
        if not word:
            continue
        if wide and len(_units(word)) > 1:
            return None
        width = fonts.advance(word, font, run_size)
        if (used + waiting if spaces else used) + width > limit:
            return None  # it breaks, or overflows (a word alone too wide): the atoms say how
        for _ in range(spaces):  # one by one, in order: the sum _set and _line make, bit for bit
            used += space
        used += width
        placed, spaces, waiting = True, 0, 0.0
    return Line((Piece(0.0, used, run_size, style.colour, text.strip(" "), font),), used)


def _line(atoms: list[_Atom]) -> Line:
    """Merge neighbouring text in the same font into one piece, so a line draws in few strings."""
    pieces: list[Piece] = []
    x = start = width = 0.0
    first: _Atom | None = None  # the first atom of the text piece being merged (None: none is)
    texts: list[str] = []

    def merged(first: _Atom) -> Piece:
        return Piece(start, width, first.size, first.colour, "".join(texts), first.font)

    for atom in atoms:
        if atom.kind == "icon":
            if first is not None:
                pieces.append(merged(first))
                first = None
            pieces.append(Piece(x, atom.width, atom.size, atom.colour, icon=atom.icon))
        elif first is not None and (first.font, first.size, first.colour) == (atom.font, atom.size, atom.colour):
            width += atom.width  # atom by atom, in order: the sum the pieces always had, bit for bit
            texts.append(atom.text)
        else:
            if first is not None:
                pieces.append(merged(first))
            first, start, width, texts = atom, x, atom.width, [atom.text]
        x += atom.width
    if first is not None:
        pieces.append(merged(first))
    return Line(tuple(pieces), x)
