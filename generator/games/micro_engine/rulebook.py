"""Read Micro-Engine's rulebook.txt for every fact the validator holds the cards to.

The rulebook is the source of truth: its sentences state the rules constants ("Each player draws 5 Workshop
cards"), the player counts it covers, the connection types and their shares, the rules the engine plays
as fixed ("keeps 1"), and the cards it names in its Example Turn and elsewhere ("Boiler (⚡ → ♨️)", "Its
Cost of 1"). Each fact is read from a sentence form below, with the line and column it stands at; a form
that no line reads like is reported at the section where the rulebook should say it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...sdk import NUM, Rulebook, Stated, number
from ...sdk import rulebook as rulebook_text

NAME = r"(?P<name>[^\s(.:,;][^(.:,;]{0,59}?)"  # a card name (at most 60 characters, as the schemas allow)
SYM = r"[^\s()→]+"  # a connection symbol as printed, e.g. ⚡ or ♨️
KINDS = ("part", "upgrade", "calibration")  # what a player plays


@dataclass(frozen=True)
class Form(rulebook_text.Form):
    """A Micro-Engine sentence form, and what its groups state.

    `states` maps a group to a fact key (`rules.hand_limit`, `fixed.cores_kept`, `players.high`, …), with an
    offset (`Licenses are not used in 2-player games` states license_min_players 2 + 1). A form with a `name`
    group states facts about that card instead: `card` gives its fixed facts (kind, …), the other groups give
    cost, vp, in, out, says, draw, by (a next-cost reduction), played (kinds played this turn) and min_cost.
    `subject` names the form, on the same line, whose card this form's groups are about. `{NAME}` and
    `{SYM}` in a pattern are a card name and a connection symbol.
    """

    states: tuple[tuple[str, str, int], ...] = ()
    card: tuple[tuple[str, object], ...] = ()
    subject: str | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        """Return the compiled pattern."""
        return re.compile(self.pattern.replace("{N}", NUM).replace("{NAME}", NAME).replace("{SYM}", SYM), re.I)


def _rule(key: str, offset: int = 0, group: str = "v") -> tuple[str, str, int]:
    return (group, key, offset)


FORMS = (
    # -- Components and Setup ------------------------------------------------------------------------
    Form(
        "cores-per-player",
        "Components",
        r"Core cards \((?P<v>{N}) per player\)",
        "Core cards (1 per player)",
        "how many Cores each player has",
        (_rule("fixed.cores_kept"),),
    ),
    Form(
        "patents-revealed",
        "Setup",
        r"reveal players \+ (?P<v>{N}) Patents",
        "Shuffle and reveal players + 1 Patents face-up.",
        "how many Patents are revealed",
        (_rule("rules.extra_patents"),),
    ),
    Form(
        "row-setup",
        "Setup",
        r"Reveal (?P<v>{N}) Workshop cards face-up",
        "Reveal 3 Workshop cards face-up.",
        "the size of the Workshop Row",
        (_rule("rules.row_size"),),
    ),
    Form(
        "cores-dealt",
        "Setup",
        r"Each player draws (?P<v>{N}), keeps (?P<kept>{N})",
        "Each player draws 2, keeps 1, and discards the other.",
        "how many Cores each player draws and keeps",
        (_rule("rules.cores_dealt"), _rule("fixed.cores_kept", group="kept")),
    ),
    Form(
        "starting-hand",
        "Setup",
        r"Each player draws (?P<v>{N}) Workshop cards",
        "Each player draws 5 Workshop cards.",
        "the starting hand",
        (_rule("rules.starting_hand"),),
    ),
    # -- Upgrades and Hosts --------------------------------------------------------------------------
    Form(
        "part-slots",
        "Upgrades and Hosts",
        r"Each Part has (?P<v>{N}) Upgrade slots? unless it shows more",
        "Each Part has 1 Upgrade slot unless it shows more.",
        "a Part's Upgrade slots",
        (_rule("rules.part_slots"),),
    ),
    Form(
        "core-slots",
        "Upgrades and Hosts",
        r"Your Core has (?P<v>{N}) slots?",
        "Your Core has 1 slot.",
        "the Core's Upgrade slots",
        (_rule("rules.core_slots"),),
    ),
    # -- Phases --------------------------------------------------------------------------------------
    Form(
        "draw-picks",
        "Phase A",
        r"Take (?P<v>{N}) cards in any combination",
        "Take 2 cards in any combination from the Workshop Row and/or the top of the deck.",
        "how many cards Phase A takes",
        (_rule("rules.draw_picks"),),
    ),
    Form(
        "row-refill",
        "Phase A",
        r"Refill the Row to (?P<v>{N}) cards",
        "Refill the Row to 3 cards at the end of this phase",
        "the size the Workshop Row is refilled to",
        (_rule("rules.row_size"),),
    ),
    Form(
        "actions",
        "Phase B",
        r"You have (?P<v>{N}) actions?\.",
        "You have 1 action.",
        "the actions of Phase B",
        (_rule("rules.actions"),),
    ),
    Form(
        "calibration-action",
        "Phase B",
        r"discard it, then gain \+(?P<v>{N}) actions?",
        "Play a Calibration. Announce it, resolve it, discard it, then gain +1 action.",
        "the action a Calibration gives back",
        (_rule("fixed.calibration_actions"),),
    ),
    Form(
        "calibrations-per-turn",
        "Phase B",
        r"You may play only (?P<v>{N}) Calibrations? per turn",
        "You may play only 1 Calibration per turn.",
        "the Calibrations allowed per turn",
        (_rule("rules.calibrations_per_turn"),),
    ),
    Form(
        "research",
        "Phase B",
        r"Research\. Draw (?P<v>{N}) cards? from the deck",
        "Research. Draw 3 cards from the deck.",
        "what Research draws",
        (_rule("rules.research_draw"),),
    ),
    Form(
        "bonus-upgrade",
        "Phase B",
        r"you may play (?P<v>{N}) Upgrades? from your hand without spending an action",
        "Right after you play a Part, you may play 1 Upgrade from your hand without spending an action.",
        "the Bonus Upgrade",
        (_rule("fixed.bonus_upgrades"),),
    ),
    Form(
        "hand-limit",
        "Phase B",
        r"more than (?P<v>{N}) cards in hand, discard down to (?P<w>{N})",
        "End of turn. If you have more than 10 cards in hand, discard down to 10.",
        "the hand limit",
        (_rule("rules.hand_limit"), _rule("rules.hand_limit", group="w")),
    ),
    # -- Example Turn: the cards it names -------------------------------------------------------------
    Form(
        "example-chain",
        "Example Turn",
        r"Your chain ends with {NAME} \(Output (?P<out>{SYM})\)",
        "Your chain ends with Dynamo Coil (Output ⚡).",
        "the Part the example chain ends with",
        card=(("kind", "part"),),
    ),
    Form(
        "example-draw",
        "Example Turn",
        r"You take {NAME} \((?P<in>{SYM}) → (?P<out>{SYM})\) from the Row",
        "You take Boiler (⚡ → ♨️) from the Row and the top card of the deck.",
        "the Part the example takes from the Row",
        card=(("kind", "part"),),
    ),
    Form(
        "example-calibration",
        "Example Turn",
        r"Calibration\. You spend your action on {NAME}: (?P<says>your next Part costs (?P<by>{N}) less, "
        r"and you draw (?P<draw>{N}))",
        "2. Calibration. You spend your action on Overclock: your next Part costs 1 less, and you draw 1.",
        "the Calibration the example plays",
        card=(("kind", "calibration"),),
    ),
    Form(
        "example-part",
        "Example Turn",
        r"Part\. You spend that action on {NAME}\. Its Cost of (?P<cost>{N}) drops to",
        "3. Part. You spend that action on Boiler. Its Cost of 1 drops to 0.",
        "the Part the example plays and its Cost",
        card=(("kind", "part"),),
    ),
    Form(
        "example-part-input",
        "Example Turn",
        r"Its Input (?P<in>{SYM}) matches",
        "Its Input ⚡ matches Dynamo Coil’s Output, so it attaches.",
        "the Input of the Part the example plays",
        subject="example-part",
    ),
    Form(
        "example-part-effect",
        "Example Turn",
        r"(?P<says>When played: you draw (?P<draw>{N}))\.",
        "When played: you draw 1.",
        "the When played effect of the Part the example plays",
        subject="example-part",
    ),
    Form(
        "example-upgrade",
        "Example Turn",
        r"Bonus Upgrade\. You play {NAME}, discarding (?P<cost>{N}) cards? to pay its Cost",
        "4. Bonus Upgrade. You play Lubrication System, discarding 1 card to pay its Cost, and tuck it under Boiler.",
        "the Upgrade the example plays and its Cost",
        card=(("kind", "upgrade"),),
    ),
    Form(
        "example-patent",
        "Example Turn",
        r"You played (?P<played>(?:an? \w+(?:, and |, | and )?)+) this turn, so you claim {NAME} \((?P<vp>{N}) VP\)",
        "5. Patent. You played a Part, an Upgrade, and a Calibration this turn, so you claim Precision Combo (3 VP).",
        "the Patent the example claims and its VP",
        card=(("kind", "patent"),),
    ),
    # -- Patents and Licenses ------------------------------------------------------------------------
    Form(
        "licenses-players",
        "Patents work like milestones",
        r"Licenses \(second place, (?P<lo>{N})[–-](?P<hi>{N}) players\)",
        "Licenses (second place, 3–4 players).",
        "the player counts Licenses are used at",
        (_rule("rules.license_min_players", group="lo"), _rule("players.high", group="hi")),
    ),
    Form(
        "one-claim",
        "Patents work like milestones",
        r"Each player may hold only (?P<v>{N}) claims? per Patent",
        "Each player may hold only one claim per Patent.",
        "the claims a player may hold per Patent",
        (_rule("fixed.claims_per_patent"),),
    ),
    Form(
        "license-vp",
        "Patents work like milestones",
        r"Each License is worth (?P<v>{N}) VP",
        "Each License is worth 2 VP.",
        "what a License is worth",
        (_rule("rules.license_vp"),),
    ),
    Form(
        "no-licenses",
        "Patents work like milestones",
        r"Licenses are not used in (?P<v>{N})-player games",
        "Licenses are not used in 2-player games.",
        "the player count without Licenses",
        (_rule("rules.license_min_players", 1), _rule("players.low")),
    ),
    # -- Costs & Requirements, Connections, Edge Cases, Variants -------------------------------------
    Form(
        "cost-effect",
        "Costs & Requirements",
        r"such as {NAME} \(“(?P<says>a Cost of (?P<min_cost>{N}) or more)”\)",
        "Then check effects that depend on the Cost, such as Efficiency Manifold (“a Cost of 2 or more”)",
        "the card whose effect depends on a Cost",
    ),
    Form(
        "connection-count",
        "Connections",
        r"^(?P<v>{N}) connection types",
        "Four connection types, from common to rare:",
        "how many connection types there are",
        (_rule("connections.count"),),
    ),
    Form(
        "research-edge",
        "Edge Cases",
        r"each Research draws (?P<v>{N})",
        "Several Research actions? Yes, if you have extra actions; each Research draws 3.",
        "what each Research draws",
        (_rule("rules.research_draw"),),
    ),
    Form(
        "calibration-edge",
        "Edge Cases",
        r"the limit is (?P<v>{N}) Calibrations? per turn",
        "Second Calibration with an extra action? No; the limit is 1 Calibration per turn",
        "the Calibrations allowed per turn",
        (_rule("rules.calibrations_per_turn"),),
    ),
    Form(
        "quick-game",
        "Variants",
        r"Quick game\. Play (?P<v>{N}) fewer rounds",
        "Quick game. Play 2 fewer rounds.",
        "how many rounds the Quick game drops",
        (_rule("variants.quick.fewer_rounds"),),
    ),
    Form(
        "travel-mode",
        "Variants",
        r"Travel mode \(no Row\)\..{0,200}?Remove {NAME} from the Cores",
        "Travel mode (no Row). Skip the Workshop Row; all draws come from the deck. Remove Row Organizer from "
        "the Cores.",
        "the Core Travel mode removes",
        card=(("kind", "core"), ("uses_row", True), ("travel_removed", True)),
    ),
)
# "• Mechanical ⚙️ — very common (~40%) · Gears, cams, belts; reliable chainers."
CONNECTION = Form(
    "connection",
    "Connections",
    r"^•\s*(?P<name>[^\s—]{1,30}(?: [^\s—]{1,30}){0,3}?) (?P<sym>{SYM}) — [^(]*\(~(?P<share>\d{1,3}) ?%\) · (?P<flavour>.+)$",
    "• Mechanical ⚙️ — very common (~40%) · Gears, cams, belts; reliable chainers.",
    "the connection types, their symbols and shares",
)


@dataclass
class NamedCard:
    """A card the rulebook names, and what it states about it (stat -> every statement, in order)."""

    name: str
    where: Stated
    facts: dict[str, list[Stated]] = field(default_factory=dict)

    def add(self, stat: str, stated: Stated) -> None:
        """Record one statement about the card."""
        self.facts.setdefault(stat, []).append(stated)


@dataclass
class Facts:
    """Everything the rulebook states that the validator holds the data to."""

    rulebook: Rulebook
    values: dict[str, list[Stated]] = field(default_factory=dict)  # fact key -> statements, in order
    named: dict[str, NamedCard] = field(default_factory=dict)  # by folded name, in order of first mention
    connections: list[dict[str, Stated]] = field(default_factory=list)
    missing: list[tuple[Form, int]] = field(default_factory=list)  # forms no line reads like, and where to say so

    def stated(self, key: str) -> list[Stated]:
        """Return every statement of one fact (empty if the rulebook never states it)."""
        return self.values.get(key, [])


def read_facts(rulebook: Rulebook) -> Facts:
    """Read every fact the sentence forms find; note each form that no line reads like."""
    facts = Facts(rulebook)
    for form in (*FORMS, CONNECTION):
        found = False
        for line, m in rulebook.search(form.rx):
            found = True
            _record(facts, form, line, m)
        if not found:
            facts.missing.append((form, rulebook.line_of(form.section) or 1))
    return facts


def _record(facts: Facts, form: Form, line: int, m: re.Match[str]) -> None:
    rb = facts.rulebook
    groups = {k: v for k, v in m.groupdict().items() if v is not None}
    if form is CONNECTION:
        facts.connections.append(
            {
                "name": rb.stated(line, m, "name"),
                "symbol": rb.stated(line, m, "sym", symbol(groups["sym"])),
                "share": rb.stated(line, m, "share", int(groups["share"])),
                "flavour": rb.stated(line, m, "flavour", groups["flavour"].strip()),
            }
        )
        return
    for group, key, offset in form.states:
        facts.values.setdefault(key, []).append(rb.stated(line, m, group, number(groups[group]) + offset))
    if "name" not in groups and form.subject is None:
        return
    card = _card(facts, form, line, m)
    if card is None:  # the sentence it depends on (which names the card) no longer reads as expected
        facts.missing.append((form, line))
        return
    for stat, value in form.card:
        card.add(stat, rb.stated(line, m, "name", value))
    for group, text in groups.items():
        if group in ("cost", "vp", "min_cost"):
            card.add(group, rb.stated(line, m, group, number(text)))
        elif group in ("in", "out"):
            card.add(group, rb.stated(line, m, group, symbol(text)))
        elif group == "says":
            card.add("says", rb.stated(line, m, group))
        elif group == "played":
            kinds = tuple(w.casefold() for w in re.findall(r"\ban? (\w+)", text))
            if not set(kinds) <= set(KINDS):  # "a Widget": not a kind of card a player plays
                facts.missing.append((form, line))
                continue
            card.add("played_this_turn", rb.stated(line, m, group, kinds))
    ops: list[tuple[int, tuple[Any, ...]]] = []  # the When played ops the sentence states, in the order it states them
    if "by" in groups:
        ops.append((m.start("by"), ("next_cost", "part", None, -number(groups["by"]))))
    if "draw" in groups:
        ops.append((m.start("draw"), ("draw", number(groups["draw"]))))
    if ops:
        first = min(at for at, _ in ops)
        where = Stated(tuple(op for _, op in sorted(ops)), line, first + 1, rb.stated(line, m, 0).sentence)
        card.add("played", where)


def _card(facts: Facts, form: Form, line: int, m: re.Match[str]) -> NamedCard | None:
    """Return the card a form's match is about: the one it names, or its subject's on the same line."""
    rb = facts.rulebook
    if m.groupdict().get("name"):
        name = m.group("name").strip()
        key = name.casefold()
        if key not in facts.named:
            facts.named[key] = NamedCard(name, rb.stated(line, m, "name", name))
        return facts.named[key]
    if form.subject is None:
        return None
    subject = next(f for f in FORMS if f.id == form.subject)
    named = subject.rx.search(rb.lines[line - 1])
    return facts.named.get(named.group("name").strip().casefold()) if named else None


def symbol(text: str) -> str:
    """Return a symbol without emoji presentation selectors: `♨️` and `♨` are the same symbol."""
    return text.replace("\ufe0f", "").replace("\ufe0e", "").strip()
