"""Game logs: one JSON line per simulated game (seed, every action, scores), and its replay through the engine.

A log line is written compactly, keys in a fixed order, so the replay can rebuild it from the engine alone and
compare bytes: a log replays when every action was legal where it stands, named as the engine names it, and the
game ends on the scores the log holds. The format (FORMAT, documented in docs/lab.md):

    {"format": "cardpress-game-log/1", "game": "pocket-foundry", "variant": [], "players": 4,
     "bots": ["lookahead", …], "inputs_sha256": "…", "run_seed": 1, "match": "main", "index": 0,
     "seed": 123…, "scores": [31, 18, …], "returns": [1.0, 0.0, …],
     "actions": [[-1, 2, "deal Sort Scoop"], [0, 6, "build Sort Scoop in slot 2"], …]}

`actions` holds every action in order as [player, action, name]: player is the seat (0-based) or -1 for
chance (a deal, the opening shuffle); action is the engine's integer; name is `action_to_string`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..diagnostics import CardpressError, Location, Report
from .plugin import Disagreement, Plugin
from .protocol import CHANCE, TERMINAL, State
from .runner import MatchResult

FORMAT = "cardpress-game-log/1"
KEYS = (
    "format",
    "game",
    "variant",
    "players",
    "bots",
    "inputs_sha256",
    "run_seed",
    "match",
    "index",
    "seed",
    "scores",
    "returns",
    "actions",
)
MAX_LINE = 64 * 1024 * 1024  # a log line longer than this is refused before it is parsed


def dumps(record: dict[str, Any]) -> str:
    """Return one record as its log line (compact JSON, keys in the documented order, no newline)."""
    return json.dumps({k: record[k] for k in KEYS}, separators=(",", ":"), ensure_ascii=False)


def records(
    results: Sequence[MatchResult], game: str, variant: Sequence[str], inputs_sha256: str | None
) -> Iterator[dict[str, Any]]:
    """Yield the log record of every game of every match (played with `log=True`), matches in order."""
    for result in results:
        for r in result.records:
            yield {
                "format": FORMAT,
                "game": game,
                "variant": list(variant),
                "players": result.match.players,
                "bots": list(result.bot_names),
                "inputs_sha256": inputs_sha256,
                "run_seed": result.match.seed,
                "match": result.match.label,
                "index": r["index"],
                "seed": r["seed"],
                "scores": list(r["scores"]),
                "returns": list(r["returns"]),
                "actions": r["actions"],
            }


def text(results: Sequence[MatchResult], game: str, variant: Sequence[str], inputs_sha256: str | None) -> str:
    """Return the whole log: one line per game."""
    return "".join(dumps(rec) + "\n" for rec in records(results, game, variant, inputs_sha256))


@dataclass(frozen=True)
class Line:
    """One line of a log file, where it is."""

    file: str
    number: int  # 1-based
    text: str

    def at(self, col: int = 1) -> Location:
        """Return a location on this line (1-based column); a log line is too long to print under a caret."""
        return Location(self.file, self.number, col)

    def near(self, col: int, width: int = 60) -> str:
        """Return the text of the line from `col` on (up to `width` characters), to quote in a message."""
        piece = self.text[max(0, col - 1) : col - 1 + width]
        return piece + ("…" if col - 1 + width < len(self.text) else "")


def line(content: str, file: str, number: int) -> Line:
    """Return line `number` (1-based) of a log's text, or raise a located error when there is none."""
    lines = content.splitlines()
    if not 1 <= number <= len(lines):
        report = Report()
        report.error(
            "R002",
            f"{file} holds {len(lines)} game(s); there is no game {number}",
            loc=Location(file, max(1, min(number, len(lines))), 1, ""),
            hint=f"give --game 1 to {len(lines)}" if lines else "the log is empty",
        )
        raise CardpressError(report)
    return Line(file, number, lines[number - 1])


def parse(where: Line) -> dict[str, Any]:
    """Return the record on a log line, or raise a located R001 error saying what is wrong with it."""
    report = Report()
    record: Any = None
    if len(where.text) > MAX_LINE:
        report.error("R001", f"line {where.number} is over {MAX_LINE:,} characters", loc=where.at())
        raise CardpressError(report)
    try:
        record = json.loads(where.text)
    except json.JSONDecodeError as exc:
        report.error("R001", f"not a JSON game record: {exc.msg}", loc=where.at(exc.colno))
        raise CardpressError(report) from None
    if not isinstance(record, dict):
        report.error("R001", "not a game record (a JSON object)", loc=where.at())
        raise CardpressError(report)
    if record.get("format") != FORMAT:
        report.error("R001", f"not a {FORMAT} record (format: {record.get('format')!r})", loc=where.at())
    missing = [k for k in KEYS if k not in record]
    if missing:
        report.error(
            "R001", "the record has no " + ", ".join(missing), loc=where.at(), hint=f"see {FORMAT} in docs/lab.md"
        )
    elif not _well_formed(record):
        report.error(
            "R001", "the record's players, actions, scores or returns are not of the documented types", loc=where.at()
        )
    if not report.ok():
        raise CardpressError(report)
    return dict(record)


def _well_formed(record: dict[str, Any]) -> bool:
    def action(a: Any) -> bool:
        return (
            isinstance(a, list)
            and len(a) == 3
            and all(isinstance(x, int) and not isinstance(x, bool) for x in a[:2])
            and isinstance(a[2], str)
        )

    return (
        isinstance(record["players"], int)
        and isinstance(record["actions"], list)
        and all(action(a) for a in record["actions"])
        and isinstance(record["scores"], list)
        and isinstance(record["returns"], list)
        and isinstance(record["variant"], list)
    )


@dataclass
class Replayed:
    """A replayed game: one line per move (with its explanation, where the game gives one) and its final state."""

    moves: list[str]
    state: State
    record: dict[str, Any]


def replay(plugin: Plugin, where: Line, record: dict[str, Any], explain: bool = True) -> Replayed:
    """Replay a logged game move by move through the engine; raise a located R004 error where they disagree.

    Every action must be the engine's to take (the same player to act, a legal action or a possible deal), be
    named as the engine names it, and (`explain`) agree with the game's own account of the move (Pocket
    Foundry's `explain` of a run); the game must end exactly where the log does, on the same scores, and the
    line rebuilt from the engine must equal the logged one byte for byte."""
    game = plugin.new_game(record["players"])
    state = game.new_initial_state()
    moves: list[str] = []
    actions = record["actions"]
    offsets = _action_columns(where.text, actions)

    def fail(k: int | None, message: str, hint: str | None = None, col: int | None = None) -> CardpressError:
        report = Report()
        at = col if col is not None else offsets[k] if k is not None and k < len(offsets) else 1
        quoted = f"the log there: {where.near(at)}"
        report.error("R004", message, loc=where.at(at), hint=f"{hint}; {quoted}" if hint else quoted)
        return CardpressError(report)

    for k, (player, action, name) in enumerate(actions):
        current = state.current_player()
        if current == TERMINAL:
            raise fail(
                k,
                f"action {k + 1} ({_who(player)}: {name!r}) comes after the game has ended",
                "the log has moves the game never played",
            )
        if current != player:
            raise fail(
                k, f"action {k + 1}: the log says {_who(player)} acts ({name!r}); the engine says {_who(current)}"
            )
        if current == CHANCE:
            possible = [o for o, _ in state.chance_outcomes()]
            if action not in possible:
                raise fail(k, f"action {k + 1}: chance outcome {action} ({name!r}) cannot happen here")
        elif action not in state.legal_actions():
            raise fail(k, f"action {k + 1}: {_who(player)} cannot play {action} ({name!r}) here: it is not legal")
        engine_name = state.action_to_string(action, player)
        if engine_name != name:
            raise fail(
                k, f"action {k + 1}: the log names it {name!r}; the engine calls action {action} {engine_name!r}"
            )
        before = state.clone() if explain else state
        state.apply_action(action)
        moves.append(f"{k + 1:4d} {_who(player)}: {name}")
        if explain:
            try:
                moves += [f"       {line}" for line in plugin.narrate(before, player, action, state)]
            except Disagreement as exc:
                raise fail(k, f"action {k + 1} ({name!r}): {exc}") from None
    if not state.is_terminal():
        raise fail(
            None,
            f"the log ends after {len(actions)} actions, before the game does ({_who(state.current_player())} to act)",
            col=len(where.text),
        )
    rebuilt = {**record, "scores": list(state.scores()), "returns": list(state.returns())}
    for key in ("scores", "returns"):
        if rebuilt[key] != record[key]:
            col = where.text.find(f'"{key}":') + 1 or 1
            raise fail(None, f"the engine ends the game on {key} {rebuilt[key]}; the log says {record[key]}", col=col)
    again = dumps(rebuilt)
    if again != where.text:
        col = next((i for i, (x, y) in enumerate(zip(again, where.text)) if x != y), min(len(again), len(where.text)))
        raise fail(
            None,
            f"the replayed game is not the logged line byte for byte (they part at column {col + 1})",
            "a log line is rewritten only by `simulate --log`; compare it with a fresh log",
            col=col + 1,
        )
    return Replayed(moves, state, rebuilt)


def _action_columns(text: str, actions: Sequence[Any]) -> list[int]:
    """Return the 1-based column of each action in a canonical log line (1 where the line is not canonical)."""
    start = text.find('"actions":[')
    if start < 0:
        return [1] * len(actions)
    col = start + len('"actions":[')
    out: list[int] = []
    for a in actions:
        piece = json.dumps(a, separators=(",", ":"), ensure_ascii=False)
        if text[col : col + len(piece)] != piece:
            return out + [1] * (len(actions) - len(out))
        out.append(col + 1)
        col += len(piece) + 1
    return out


def _who(player: int) -> str:
    return "chance" if player == CHANCE else "nobody (the game is over)" if player == TERMINAL else f"P{player + 1}"
