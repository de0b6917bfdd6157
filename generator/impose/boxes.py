"""A kit's tuck boxes: what game.yaml asks for (`boxes:`), one box per deck plus one for the whole game, and
the pages their die lines print on. Pure: the faces are drawn by the `tuckbox.yaml.j2` template."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Report, did_you_mean
from ..kit import Face, Kit, Page
from ..layout.units import to_mm
from ..source.yamlsrc import Source
from .sheets import PAPERS
from .sizes import CardSize, size_label
from .tuckbox import (
    DEFAULT_STOCK,
    SLEEVES,
    SPILL,
    STOCKS,
    Inner,
    Net,
    Placed,
    Point,
    Sleeve,
    Stock,
    arrange,
    fitting,
    inner,
    most_cards,
)

TEMPLATE = "tuckbox.yaml.j2"
THICKNESS = (0.05, 3.0)  # mm: the calipers a custom stock or sleeve may have
WHOLE = "game"  # the id of the box for the whole game


@dataclass(frozen=True)
class BoxOptions:
    """What game.yaml's `boxes:` says: whether boxes print, the card stock and sleeves they are sized for."""

    enabled: bool = True
    stock: Stock = STOCKS[DEFAULT_STOCK]
    sleeve: Sleeve = SLEEVES["none"]
    whole_game: bool = True
    skip: tuple[str, ...] = ()


@dataclass(frozen=True)
class Box:
    """One tuck box: what it holds and its inside."""

    id: str  # the deck's id, or WHOLE
    name: str  # what the box says it holds
    count: int
    card: tuple[float, float]  # the largest card it holds
    size: str  # how the box names the card size
    inner: Inner


@dataclass
class BoxSet:
    """A kit's boxes, the options they were sized with and the player count they print."""

    options: BoxOptions
    players: str  # e.g. "2–5 players"
    boxes: list[Box] = field(default_factory=list)


def read_options(source: Source, report: Report, decks: Collection[str]) -> BoxOptions:
    """Return game.yaml's `boxes:` options; report (located) what the schema cannot: thicknesses, deck ids."""
    data = source.data if isinstance(source.data, dict) else {}
    value = data.get("boxes", True)
    if isinstance(value, bool) or not isinstance(value, dict):
        return BoxOptions(enabled=value is not False)
    stock = _thickness(source, report, value.get("stock"), "stock", STOCKS, STOCKS[DEFAULT_STOCK])
    sleeve = _thickness(source, report, value.get("sleeves"), "sleeves", SLEEVES, SLEEVES["none"])
    skip = value.get("skip", [])
    ids = tuple(x for x in skip if isinstance(x, str)) if isinstance(skip, list) else ()
    for n, deck in enumerate(ids):
        if deck not in decks:
            report.error(
                "S005",
                f"no deck '{deck}'",
                path=f"boxes.skip[{n}]",
                loc=source.loc(("boxes", "skip", n)),
                hint=did_you_mean(deck, sorted(decks)) or f"decks: {', '.join(sorted(decks))}",
            )
    return BoxOptions(
        enabled=True,
        stock=stock if isinstance(stock, Stock) else STOCKS[DEFAULT_STOCK],
        sleeve=sleeve if isinstance(sleeve, Sleeve) else SLEEVES["none"],
        whole_game=value.get("whole_game", True) is not False,
        skip=ids,
    )


def _thickness(
    source: Source, report: Report, value: Any, key: str, presets: dict[str, Any], default: Any
) -> Stock | Sleeve:
    """Return the stock or sleeve `value` names, or the custom one it measures; report (located) what is wrong."""
    where = ("boxes", key)
    if value is None:
        return default  # type: ignore[no-any-return]
    if isinstance(value, str):
        if value in presets:
            return presets[value]  # type: ignore[no-any-return]
        report.error(
            "S004",
            f"no {'stock' if key == 'stock' else 'sleeve'} '{value}'",
            path=f"boxes.{key}",
            loc=source.loc(where),
            hint=did_you_mean(value, list(presets)) or f"choose one of {', '.join(presets)}, or {{thickness: 0.31mm}}",
        )
        return default  # type: ignore[no-any-return]
    extra = sorted(str(k) for k in value if k != "thickness") if isinstance(value, dict) else []
    if extra or not isinstance(value, dict) or "thickness" not in value:
        report.error(
            "S004",
            "must be a name or {thickness: <length>}",
            path=f"boxes.{key}",
            loc=source.loc(where + (extra[0],), key=True) if extra else source.loc(where),
            hint=f"e.g. {key}: {next(iter(presets))}, or {key}: {{thickness: 0.31mm}}",
        )
        return default  # type: ignore[no-any-return]
    try:
        mm = to_mm(value["thickness"])
    except (ValueError, TypeError):
        mm = -1.0
    if not THICKNESS[0] <= mm <= THICKNESS[1]:
        report.error(
            "S004",
            f"must be a length from {THICKNESS[0]:g} to {THICKNESS[1]:g} mm, got {value['thickness']!r}",
            path=f"boxes.{key}.thickness",
            loc=source.loc(where + ("thickness",)),
            hint="write e.g. 0.31mm, or a paper caliper in inches (12 pt card is 0.012in); "
            "measure a stack of 10 cards and divide by 10",
        )
        return default  # type: ignore[no-any-return]
    if key == "stock":
        return Stock("custom", mm, f"{mm:g} mm card")
    return Sleeve("custom", mm, SLEEVES["standard"].margin)


def players_text(players: tuple[int, ...]) -> str:
    """Return how a box names the player counts: '2–5 players', '1 player'."""
    low, high = min(players), max(players)
    count = f"{low}" if low == high else f"{low}–{high}"
    return f"{count} player{'s' if high != 1 else ''}"


def kit_boxes(kit: Kit, options: BoxOptions, players: str) -> BoxSet:
    """Return a box for every deck of cards in `kit` (but those skipped) and, when it has several, one for the
    whole game's cards (tokens and tiles of other shapes get none)."""
    result = BoxSet(options, players)
    if not options.enabled:
        return result
    decks: dict[str, list[tuple[float, float]]] = {}
    for card in kit.cards:
        if card.shape == "rectangle":  # round tokens and hex tiles are no cards to stand in a tuck box
            decks.setdefault(card.deck, []).append((card.size.w, card.size.h))
    for deck, sizes in decks.items():
        if deck in options.skip:
            continue
        name = kit.decks.get(deck, deck)
        result.boxes.append(
            Box(
                deck,
                name,
                len(sizes),
                sizes[0],
                size_label(kit_size(kit, deck)),
                _inside(options, sizes[0], len(sizes)),
            )
        )
    if options.whole_game and len(decks) > 1:
        every = [size for deck_sizes in decks.values() for size in deck_sizes]
        largest = (max(min(s) for s in every), max(max(s) for s in every))
        labels = sorted({size_label(kit_size(kit, deck)) for deck in decks})
        result.boxes.append(
            Box(
                WHOLE,
                f"the whole {kit.title}",
                len(every),
                largest,
                " and ".join(labels),
                _inside(options, largest, len(every)),
            )
        )
    return result


def kit_size(kit: Kit, deck: str) -> CardSize:
    """Return the card size of `deck`'s first card."""
    return next(card.size for card in kit.cards if card.deck == deck)


def _inside(options: BoxOptions, card: tuple[float, float], count: int) -> Inner:
    return inner(card, count, options.stock, options.sleeve)


def problems(boxes: BoxSet, paper: str) -> list[tuple[Box, str, str]]:
    """Return (box, message, hint) for every deck box too deep for any box on `paper`, even split in two."""
    found = []
    name = PAPERS[paper][0]
    options = boxes.options
    for box in boxes.boxes:
        if box.id == WHOLE or fitting(box.inner, paper) is not None:
            continue
        most = most_cards(box.card, options.stock, options.sleeve, paper)
        if most == 0:  # cards too large for any box on this paper: none is printed, as for the whole game's
            continue
        thick = options.stock.thickness + options.sleeve.thickness
        found.append(
            (
                box,
                f"{name}: deck '{box.id}': {box.count} cards at {thick:g} mm make a tuck box {box.inner.d:.1f} mm deep, "
                f"too deep for {name} even split over two sheets (a box there holds at most {most})",
                "choose a thinner stock or no sleeves under `boxes:` in game.yaml, or leave the deck's box out "
                f"with `boxes: {{skip: [{box.id}]}}`",
            )
        )
    return found


def pages(kit: Kit, paper: str) -> list[Page]:
    """Return the box pages of `kit` on `paper`: every deck box that fits, and the whole game's if it fits one piece."""
    boxes = kit.boxes
    if boxes is None or not boxes.boxes:
        return []
    chosen: list[tuple[Box, Net]] = []
    for box in boxes.boxes:
        found = fitting(box.inner, paper, one_piece=box.id == WHOLE)
        if found is not None:
            chosen.append((box, found))
    result = []
    sheets = arrange([n for _, n in chosen], paper)
    for number, placed in enumerate(sheets, 1):
        held = [chosen[p.box][0] for p in placed]
        names = list(dict.fromkeys(b.name for b in held))
        context = {
            "game": kit.context,
            "title": kit.title,
            "players": boxes.players,
            "stock": boxes.options.stock.label,
            "sleeves": "" if boxes.options.sleeve.name == "none" else f"{boxes.options.sleeve.name} sleeves",
            "colours": colours(kit.context),
            "boxes": [_piece(chosen[p.box][0], chosen[p.box][1], p, boxes.options) for p in placed],
        }
        label = ("Tuck box: " if len(names) == 1 else "Tuck boxes: ") + ", ".join(names)
        result.append(Page(f"box-{number}", label, Face(TEMPLATE, context, f"tuckbox-{number}")))
    return result


def summary(kit: Kit, paper: str) -> str:
    """Return what the cover says about the box pages: how many boxes, for what, how to make them."""
    held = [b for b in (kit.boxes.boxes if kit.boxes else []) if fitting(b.inner, paper, one_piece=b.id == WHOLE)]
    decks = sum(1 for b in held if b.id != WHOLE)
    whole = " and one for the whole game" if len(held) > decks else ""
    each = "one box" if decks == 1 and not whole else f"{len(held)} boxes, one per deck{whole}"
    return f"{each}: cut, fold, glue; single-sided"


def colours(context: dict[str, Any]) -> dict[str, str]:
    """Return the box's colours from the game's style: its ink, its paper and the colour of its card backs."""
    style = context.get("style") if isinstance(context.get("style"), dict) else {}
    assert isinstance(style, dict)

    def pick(*keys: str, default: str) -> str:
        for key in keys:
            value = style.get(key)
            if isinstance(value, str) and value.startswith("#") and len(value) == 7:
                return value
        return default

    return {
        "ink": pick("ink", default="#2a2622"),
        "paper": pick("paper", default="#f4eddc"),
        "accent": pick("back", "box", "aid", "core", default="#2e3a46"),
    }


ART = {"front": 0, "back": 0, "spine-1": 270, "spine-2": 270, "lid-top": 180, "lid-bottom": 0, "glue": 90, "glue-2": 90}


def _turn(panel: str, turn: int) -> int:
    """Return how far a panel's art turns on the page: with the die line, but a glue label always reads across."""
    if panel.startswith("glue"):
        return 0 if turn else ART[panel]
    return (ART[panel] + turn) % 360


def _piece(box: Box, net: Net, placed: Placed, options: BoxOptions) -> dict[str, Any]:
    """Return what the template draws for one placed piece, in page millimetres."""
    piece = net.pieces[placed.piece]
    px, py = placed.x, placed.y
    pw, ph = placed.size(net)

    def at(point: Point) -> list[float]:
        x, y = placed.to_page(net, point)
        return [round(x, 3), round(y, 3)]

    def local(point: Point) -> str:
        x, y = placed.to_page(net, point)
        return f"{x - px:.3f} {y - py:.3f}"

    def box_of(points: tuple[Point, ...], grow: float = 0.0) -> dict[str, float]:
        xs, ys = zip(*(placed.to_page(net, p) for p in points), strict=True)
        return {
            "x": round(min(xs) - grow, 3),
            "y": round(min(ys) - grow, 3),
            "w": round(max(xs) - min(xs) + 2 * grow, 3),
            "h": round(max(ys) - min(ys) + 2 * grow, 3),
        }

    mine = [p for p in net.panels if p.piece == placed.piece]
    walls = [p for p in mine if p.name in ("back", "spine-1", "front", "spine-2")]
    wall_points = tuple(pt for p in walls for pt in p.points)
    turn = 90 if placed.turned else 0
    panels = {p.name: {**box_of(p.points), "rotate": _turn(p.name, turn)} for p in mine if p.name in ART}
    return {
        "deck": box.name,
        "whole": box.id == WHOLE,
        "count": box.count,
        "size": box.size,
        "inner": {"w": round(box.inner.w, 1), "h": round(box.inner.h, 1), "d": round(box.inner.d, 1)},
        "thickness": options.stock.thickness + options.sleeve.thickness,
        "piece": placed.piece + 1,
        "pieces": len(net.pieces),
        "x": round(px, 3),
        "y": round(py, 3),
        "w": round(pw, 3),
        "h": round(ph, 3),
        "cut": "M " + " L ".join(local(p) for p in piece.outline) + " Z",
        "folds": [[at(a), at(b)] for a, b in piece.folds],
        "walls": box_of(wall_points, SPILL),
        "lids": [box_of(p.points, SPILL) for p in mine if p.name.startswith("lid-")],
        "glue": [[at(pt) for pt in p.points] for p in mine if p.name.startswith("glue")],
        "panels": panels,
    }
