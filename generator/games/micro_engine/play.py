"""Phase B, Play: spend actions on a Part, an Upgrade, a Calibration or Research; pay Costs; the Bonus Upgrade.

Rulings on "You have 1 action. Spend it on one of: …" and "Extra actions" (also in the manual's Micro-Engine page):
- The turn's action must be spent. Ending Phase B is legal only once `rules.actions` (1) actions have been
  spent this turn, or when no way to spend one is possible.
- Research is a way to spend an action while the deck or the discard pile holds a card (it draws what there
  is). With both empty there is nothing to research, so it is not offered.
- The action is lost only when no Part, Upgrade or Calibration can be played and there is nothing to draw:
  ending the turn is then the only legal action.
- Every action gained during the turn is an extra action, optional to spend ("unused actions are lost at the
  end of your turn"): the +1 action after a Calibration and "+1 action" effects (Double Shift, Capacitor
  Bank, Auxiliary Battery). Playing a Calibration spends the turn's action, so the turn may end after it.
- The Bonus Upgrade spends no action, so it never counts toward the action that must be spent.
"""

from __future__ import annotations

from . import draw, patents, tableau, turn, zones
from .board import Board, Link
from .phase import AFTER_DRAW, AFTER_NOTHING, BONUS, EFFECT_DISCARD, PAY, PLAY, TRIGGER_ORDER
from .tables import ACTION, CALIBRATION, DISCARD, DRAW, NEXT_ANY, NEXT_COST, PART, RESEARCH, UPGRADE


def choices(board: Board) -> list[int]:
    """Return the plays the current player can pay for and meet, then Research if there is a card to draw,
    then ending the turn once the turn's action is spent (or when nothing can spend it)."""
    tables = board.tables
    player = board.current
    hand = board.hands[player]
    room = len(hand) - 1  # the card played is not there to pay with
    actions = []
    itype = tables.itype
    kind_of = tables.kind
    free = None
    abilities = board.abilities[player]
    printed = not (abilities.cost or board.next_cost[player] or abilities.once_cost)  # no Cost changes in play
    cost_of, req_of, printed_cost = tableau.cost_of, tables.req, tables.cost
    calibrations_ok = board.calibrations_played < tables.rules.calibrations_per_turn
    inmask, output = tables.inmask, tableau.chain_output(board, player)  # what tableau.can_attach reads, once
    any_input = tableau.any_input(board, player)
    for card_type in {itype[card] for card in hand}:
        kind = kind_of[card_type]
        if kind == CALIBRATION and not calibrations_ok:
            continue
        if (printed_cost[card_type] if printed else cost_of(board, player, card_type)) > room:
            continue
        req = req_of[card_type]
        if req is not None and not tableau.meets(board, player, req):
            continue
        if kind == PART:
            if inmask[card_type] & output or any_input:  # tableau.can_attach
                actions.append(tables.A_PART + card_type)
        elif kind == UPGRADE:
            if free is None:
                free = tableau.free_hosts(board, player)
            base = tables.A_UPG + card_type * tables.max_hosts
            actions.extend(base + host for host in free)
        else:
            actions.append(tables.A_CAL + card_type)
    actions.sort()
    if zones.can_draw(board):
        actions.append(tables.A_RESEARCH)
    if board.actions_taken >= tables.rules.actions or not actions:
        actions.append(tables.A_END)
    return actions


def act(board: Board, action: int) -> None:
    """Spend an action (or end the turn)."""
    tables = board.tables
    player = board.current
    if action == tables.A_RESEARCH:
        research(board, player)
    elif action == tables.A_END:
        board.actions_left = 0
        turn.end(board)
        return  # the next turn's start checks claims
    elif action < tables.A_UPG:
        announce(board, player, action - tables.A_PART, PART, -1)
    elif action < tables.A_CAL:
        card_type, host = divmod(action - tables.A_UPG, tables.max_hosts)
        announce(board, player, card_type, UPGRADE, host)
    else:
        announce(board, player, action - tables.A_CAL, CALIBRATION, -1)
    patents.claim_if_changed(board)


def research(board: Board, player: int) -> None:
    """Research: draw 3 cards from the deck (more with Research abilities), then its triggers resolve."""
    board.actions_left -= 1
    board.actions_taken += 1
    board.claims_stale = True
    board.stats.research[player] += 1
    for _ in range(board.tables.rules.research_draw + board.abilities[player].research):
        zones.draw_to_hand(board, player)
    fire(board, player, RESEARCH, -1, 0)
    resolve(board, player)


def announce(board: Board, player: int, card_type: int, kind: int, host: int) -> None:
    """Start playing a card: spend the action, take it from hand, fix its Cost, then pay it."""
    tables = board.tables
    if not board.in_bonus:
        board.actions_left -= 1
        board.actions_taken += 1
    if kind == PART:
        output = tableau.chain_output(board, player)
        if tables.inmask[card_type] & output:
            if not board.chains[player]:
                link = Link.FIRST
            else:
                link = Link.PRINTED if output != tables.ALL else Link.OPEN_END
            board.next_any_input[player] = False  # "your next Part may have any Input" is used up by it
        elif board.next_any_input[player]:
            link = Link.ANY_INPUT
            board.next_any_input[player] = False
        else:  # a once-per-turn "any Input" permission makes the connection
            link = Link.ANY_INPUT
            key = next(key for key in board.abilities[player].once_any_input if key not in board.used_this_turn)
            board.used_this_turn.add(key)
        host = link  # for a Part, `host` carries how it attached
    card = zones.take_from_hand(board, player, card_type)
    cost = tableau.cost_of(board, player, card_type, consume=True)
    board.pending = (card, host)
    board.last_paid = cost
    if cost > 0:
        board.phase = PAY
        board.pay_left = cost
        board.discard_floor = 0
    else:
        enter_play(board, player)


def pay_choices(board: Board) -> list[int]:
    """Return the discards that pay the pending card's Cost."""
    return zones.discard_choices(board, board.current, board.pay_left)


def pay(board: Board, action: int) -> None:
    """Discard one card toward the Cost; the card enters play once it is paid."""
    player = board.current
    zones.discard_from_hand(board, player, action - board.tables.A_DISCARD)
    board.pay_left -= 1
    if board.pay_left == 0:
        enter_play(board, player)
    patents.claim_if_changed(board)


def enter_play(board: Board, player: int) -> None:
    """The paid card enters play (or resolves, for a Calibration); then its When played and triggers resolve."""
    tables = board.tables
    assert board.pending is not None
    card, host = board.pending
    card_type = tables.itype[card]
    kind = tables.kind[card_type]
    board.claims_stale = True
    if kind == PART:
        board.chains[player].append(card)
        board.links[player].append(host)
        board.hosts[player].append([])
        if tables.has_statics[card_type]:
            tableau.rebuild(board, player)
        tableau.recount(board, player)
    elif kind == UPGRADE:
        board.hosts[player][host].append(card)
        if tables.has_statics[card_type]:
            tableau.rebuild(board, player)
        tableau.recount(board, player)
    else:
        board.calibrations_played += 1
        board.stats.calibrations[player] += 1
    board.kinds_played |= 1 << kind
    board.stats.plays.append((board.turn, player, card_type, board.last_paid))
    board.after_effects = kind
    board.trigger_queue = []
    if tables.played[card_type]:
        board.trigger_queue.append(list(tables.played[card_type]))
    fire(board, player, kind, card, board.last_paid)
    resolve(board, player)


def upgrade_choices(board: Board, player: int) -> list[int]:
    """Return the Upgrades `player` could tuck now as the Bonus Upgrade (Cost paid, Requirement met, a free slot)."""
    tables = board.tables
    hand = board.hands[player]
    room = len(hand) - 1
    free = tableau.free_hosts(board, player)
    if not free:
        return []
    actions: list[int] = []
    for card_type in {tables.itype[card] for card in hand}:
        if (
            tables.kind[card_type] == UPGRADE
            and tableau.cost_of(board, player, card_type) <= room
            and tableau.requirement_met(board, player, card_type)
        ):
            base = tables.A_UPG + card_type * tables.max_hosts
            actions.extend(base + host for host in free)
    actions.sort()
    return actions


def bonus_choices(board: Board) -> list[int]:
    """Return the Bonus Upgrades, then skipping it."""
    return upgrade_choices(board, board.current) + [board.tables.A_SKIP]


def bonus(board: Board, action: int) -> None:
    """Play the Bonus Upgrade (no action spent) or skip it."""
    tables = board.tables
    player = board.current
    if action == tables.A_SKIP:
        resume(board, player)
    else:
        card_type, host = divmod(action - tables.A_UPG, tables.max_hosts)
        board.in_bonus = True
        announce(board, player, card_type, UPGRADE, host)
    patents.claim_if_changed(board)


def after_card(board: Board, player: int) -> None:
    """Once a card's effects have resolved: discard a Calibration (+1 action), offer the Bonus Upgrade after a Part."""
    after = board.after_effects
    board.after_effects = AFTER_NOTHING
    if after == CALIBRATION:
        assert board.pending is not None
        board.discard.append(board.pending[0])  # "announce it, resolve it, discard it, then gain +1 action"
        board.actions_left += 1
    board.pending = None
    if after == PART and upgrade_choices(board, player):
        board.phase = BONUS
        return
    resume(board, player)


def resume(board: Board, player: int) -> None:
    """Go back to Phase B while actions remain, else end the turn."""
    board.in_bonus = False
    if board.actions_left > 0:
        board.phase = PLAY
    else:
        turn.end(board)


# Effects: triggers fire into a queue that resolves fully, stopping only for a choice (a discard, or the order).


def fire(board: Board, player: int, event: int, card: int, paid: int) -> None:
    """Queue the triggers of `player`'s cards in play that fire on `event` (a card never triggers itself)."""
    tables = board.tables
    if event == RESEARCH:
        board.after_effects = RESEARCH
        board.trigger_queue = []
    outbit = tables.outbit[tables.itype[card]] if card >= 0 else 0
    used = board.used_this_turn
    for key, once, trigger_event, types, min_cost, ops, source in board.abilities[player].triggers:
        if trigger_event != event or source == card:
            continue
        if types != tables.ALL and not outbit & types:
            continue
        if min_cost and paid < min_cost:
            continue
        if once:
            if key in used:
                continue
            used.add(key)
        board.trigger_queue.append(list(ops))


def resolve(board: Board, player: int) -> None:
    """Resolve queued effects fully ("Resolve each effect fully before continuing"), stopping only for a choice."""
    while True:
        while board.resolving:
            code, a, b, c = board.resolving.pop(0)
            if code == DRAW:
                for _ in range(a):
                    zones.draw_to_hand(board, player)
            elif code == ACTION:
                board.actions_left += a
            elif code == NEXT_COST:
                board.next_cost[player].append((a, b, c))
            elif code == NEXT_ANY:
                board.next_any_input[player] = True
            elif code == DISCARD and board.hands[player]:
                board.phase = EFFECT_DISCARD
                board.discard_left = min(a, len(board.hands[player]))
                board.discard_floor = 0
                return
        queue = board.trigger_queue
        if not queue:
            break
        if len(queue) > 1 and any(op[0] == DISCARD for group in queue for op in group):
            board.phase = TRIGGER_ORDER  # "you choose the order" matters only when a discard is involved
            return
        board.resolving = queue.pop(0)
    if board.after_effects == AFTER_DRAW:
        board.after_effects = AFTER_NOTHING
        draw.end(board)
    else:
        after_card(board, player)


def order_choices(board: Board) -> list[int]:
    """Return which queued group of effects to resolve first."""
    return [board.tables.A_ORDER + k for k in range(len(board.trigger_queue))]


def choose_order(board: Board, action: int) -> None:
    """Resolve the chosen group first, then the rest."""
    board.resolving = list(board.trigger_queue.pop(action - board.tables.A_ORDER))
    resolve(board, board.current)
    patents.claim_if_changed(board)


def discard_choices(board: Board) -> list[int]:
    """Return the discards an effect asks for."""
    return zones.discard_choices(board, board.current, board.discard_left)


def discard(board: Board, action: int) -> None:
    """Discard one card for an effect; resolution goes on after the last (or when the hand is empty)."""
    player = board.current
    zones.discard_from_hand(board, player, action - board.tables.A_DISCARD)
    board.discard_left -= 1
    if board.discard_left == 0 or not board.hands[player]:
        resolve(board, player)
    patents.claim_if_changed(board)
