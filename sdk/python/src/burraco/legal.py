"""The legal moves of the seat on turn, worked out client-side from the table state with the
checks the server makes (``rules/src/game.rs``: RULES.md sections 4-7).

Where the state cannot know something (after a snapshot taken mid-turn it does not know whether
the pile was picked up this turn, nor, in a ``fedibur`` hand, whether the first round is over)
the list may hold a move the server refuses; the refusal then names the rule (:class:`Rule`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Optional

from .actions import Attach, Discard, Draw, Open, PickUp, Take
from .cards import Card, is_wild, norma_key, without
from .errors import Rule
from .melds import Meld, MeldError, MeldOption, MeldShape, attachable, check_attach, check_open
from .melds import openable
from .state import TableState

# Which presets let a side close in the turn it picked up the pile, and in the first round
# (RULES.md section 1).
_PILE_CLOSING = {"fitab": "forbidden", "feburit": "allowed", "fedibur": "single_card"}
_FIRST_ROUND_CLOSING = {"fitab": True, "feburit": True, "fedibur": False}


@dataclass
class LegalMoves:
    """What the seat on turn may do now. In the take phase only ``takes`` is filled; in the play
    phase ``opens``, ``attaches`` and ``discards``."""

    takes: list[Take] = field(default_factory=list)
    opens: list[Open] = field(default_factory=list)
    attaches: list[Attach] = field(default_factory=list)
    discards: list[Discard] = field(default_factory=list)
    open_results: dict[Open, MeldShape] = field(default_factory=dict)
    """The meld each opening lays."""
    attach_results: dict[Attach, MeldShape] = field(default_factory=dict)
    """Each attachment's meld, as it will be."""

    @property
    def melds(self) -> list["Open | Attach"]:
        return [*self.opens, *self.attaches]

    def result_of(self, move: "Open | Attach") -> Optional[MeldShape]:
        """The meld a listed opening or attachment makes (``None`` for a move not listed)."""
        if isinstance(move, Open):
            return self.open_results.get(move)
        return self.attach_results.get(move)


def _restricted(state: TableState) -> Optional[Card]:
    return state.picked_single_card


def _first_round(state: TableState) -> bool:
    return state.turns_this_hand is not None and state.turns_this_hand <= state.players


def _side_burracos(state: TableState, change: Optional[tuple[Optional[int], MeldShape]]
                   ) -> tuple[bool, bool]:
    """Whether the side on turn has a burraco, and a clean one, counting ``change``."""
    semipulito = bool(state.settings.get("semipulito", True))
    found_any = found_clean = False
    side = state.my_side
    shapes: list[Meld] = []
    for m in state.melds:
        if m.side != side:
            continue
        if change is not None and change[0] == m.id:
            shapes.append(change[1].as_meld(m.id, m.side))
        else:
            shapes.append(m)
    if change is not None and change[0] is None:
        shapes.append(change[1].as_meld(-1, side or ""))
    for m in shapes:
        kind = m.burraco_kind(semipulito)
        if kind is not None:
            found_any = True
            found_clean |= kind in ("reale", "super", "pulito")
    return found_any, found_clean


def closing_error(state: TableState, card: Card,
                  change: Optional[tuple[Optional[int], MeldShape]] = None) -> Optional[Rule]:
    """Why discarding ``card`` as the last card would not close (RULES.md section 7)."""
    if not state.has_pozzetto():
        return Rule.CLOSE_WITHOUT_POZZETTO
    any_burraco, clean = _side_burracos(state, change)
    if not any_burraco:
        return Rule.CLOSE_WITHOUT_BURRACO
    if state.settings.get("close_requires_pulito") and not clean:
        return Rule.CLOSE_WITHOUT_BURRACO_PULITO
    if is_wild(card):
        return Rule.CLOSE_WITH_WILD
    if state.picked_up_this_turn > 0:
        rule = _PILE_CLOSING.get(state.preset, "allowed")
        if rule == "forbidden":
            return Rule.CLOSE_AFTER_PILE_PICKUP
        if rule == "single_card" and state.picked_up_this_turn > 1:
            return Rule.CLOSE_AFTER_MULTI_CARD_PICKUP
    if not _FIRST_ROUND_CLOSING.get(state.preset, True) and _first_round(state):
        return Rule.CLOSE_IN_FIRST_ROUND
    return None


def discard_error(state: TableState, hand: list[Card], card: Card, restricted: Optional[Card],
                  change: Optional[tuple[Optional[int], MeldShape]] = None) -> Optional[Rule]:
    if card not in hand:
        return Rule.CARD_NOT_IN_HAND
    if restricted == card and hand.count(card) < 2:
        return Rule.DISCARD_PICKED_UP_CARD
    if len(hand) > 1:
        return None
    if not state.has_pozzetto():
        return None  # con lo scarto: going to the pozzetto with any card, a wild included
    return closing_error(state, card, change)


def _hand_after_play_error(state: TableState, hand: list[Card], cards: Iterable[Card],
                           target: Optional[int], result: MeldShape) -> Optional[Rule]:
    cards = list(cards)
    if len(hand) - len(cards) > 1:
        return None
    after = without(hand, cards)
    if not after:
        return Rule.WOULD_EMPTY_HAND if state.has_pozzetto() else None
    restricted = _restricted(state)
    if restricted in cards:
        restricted = None
    err = discard_error(state, after, after[0], restricted, (target, result))
    if err == Rule.DISCARD_PICKED_UP_CARD:
        return Rule.NO_LEGAL_DISCARD_LEFT
    return err


def check(state: TableState, action: object) -> Optional[Rule]:
    """The rule that would refuse ``action`` now, or ``None`` when it looks legal.

    The server decides; this answers the same way for everything the state knows.
    """
    if state.you is None or state.on_turn != state.you:
        return Rule.NOT_YOUR_TURN
    if state.phase == "over" or state.phase is None:
        return Rule.HAND_OVER if state.phase == "over" else Rule.NOT_YOUR_TURN
    if isinstance(action, (Draw, PickUp)):
        if state.phase != "take":
            return Rule.ALREADY_TAKEN
        if isinstance(action, Draw) and state.tallone <= 2:
            return Rule.TALLONE_EXHAUSTED
        if isinstance(action, PickUp) and state.stallo_must_draw == state.you:
            return Rule.STALLO_MUST_DRAW
        return None
    if state.phase == "take":
        return Rule.MUST_TAKE_FIRST
    hand = state.hand or []
    if isinstance(action, Discard):
        return discard_error(state, hand, action.card, _restricted(state))
    if isinstance(action, Open):
        if not Counter(hand) >= Counter(action.cards):
            return Rule.CARDS_NOT_IN_HAND
        try:
            shape = check_open(action.cards, action.wild_at)
        except MeldError as e:
            return Rule.parse(e.rule)
        if shape.kind == "combination":
            r = Meld(-1, "", shape.kind, None, shape.cards, None, shape.wild).rank
            if any(not m.is_sequence and m.rank == r for m in state.my_melds()):
                return Rule.DUPLICATE_COMBINATION
        return _hand_after_play_error(state, hand, action.cards, None, shape)
    if isinstance(action, Attach):
        if not 0 <= action.meld < len(state.melds):
            return Rule.UNKNOWN_MELD
        meld = state.melds[action.meld]
        if meld.side != state.my_side:
            return Rule.OPPONENTS_MELD
        if not Counter(hand) >= Counter(action.cards):
            return Rule.CARDS_NOT_IN_HAND
        try:
            shape = check_attach(meld, action.cards, action.wild_at)
        except MeldError as e:
            return Rule.parse(e.rule)
        return _hand_after_play_error(state, hand, action.cards, meld.id, shape)
    return Rule.UNKNOWN


def legal_moves(state: TableState) -> LegalMoves:
    """Every legal move of your seat now (empty lists when it is not your turn)."""
    legal = LegalMoves()
    if not state.my_turn or state.hand is None:
        return legal
    if state.phase == "take":
        if state.tallone > 2:
            legal.takes.append(Draw())
        if state.pile and state.stallo_must_draw != state.you:
            legal.takes.append(PickUp())
        return legal
    hand = state.hand
    restricted = _restricted(state)
    for card in sorted(set(hand), key=norma_key):
        if discard_error(state, hand, card, restricted) is None:
            legal.discards.append(Discard(card))
    my_combination_ranks = {m.rank for m in state.my_melds() if not m.is_sequence}
    seen_open: set[tuple[tuple[Card, ...], Optional[int]]] = set()
    for option in openable(hand):
        if option.result.kind == "combination":
            r = next(c for c in option.cards if not is_wild(c))[:-1]
            if r in my_combination_ranks:
                continue
        key = (tuple(sorted(option.cards)), option.wild_at)
        if key in seen_open:
            continue
        seen_open.add(key)
        if _hand_after_play_error(state, hand, option.cards, None, option.result) is None:
            o = Open(tuple(option.cards), option.wild_at)
            legal.opens.append(o)
            legal.open_results[o] = option.result
    for meld in state.my_melds():
        seen: set[tuple[tuple[Card, ...], Optional[int]]] = set()
        for opt in attachable(meld, hand):
            key = (tuple(sorted(opt.cards)), opt.wild_at)
            if key in seen:
                continue
            seen.add(key)
            if _hand_after_play_error(state, hand, opt.cards, meld.id, opt.result) is None:
                a = Attach(meld.id, tuple(opt.cards), opt.wild_at)
                legal.attaches.append(a)
                legal.attach_results[a] = opt.result
    return legal


def fallback_move(state: TableState) -> "Draw | PickUp | Discard | None":
    """A move the state says is legal, for a strategy whose choices keep being refused: draw
    (else pick up), or the discard the server's clock would make (highest value first)."""
    legal = legal_moves(state)
    if legal.takes:
        return legal.takes[0]
    if legal.discards:
        return legal.discards[0]
    return None


__all__ = ["LegalMoves", "MeldOption", "check", "closing_error", "discard_error", "fallback_move",
           "legal_moves"]
