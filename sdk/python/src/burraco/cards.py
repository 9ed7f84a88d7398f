"""Cards as the protocol writes them (docs/PROTOCOL.md section 1; RULES.md section 2).

A card is its code, a plain string: ``"7H"``, ``"10S"``, ``"JK"`` (the four jokers are all
``"JK"``). Copies are indistinguishable, so a hand is a list in which a code may repeat.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Optional

Card = str
"""A card code: rank then suit (``"AH"``, ``"10D"``), or ``"JK"`` for a joker."""

JOKER: Card = "JK"
SUITS: tuple[str, ...] = ("H", "D", "C", "S")
"""Hearts, diamonds, clubs, spades: the suit order, high to low (RULES.md section 2)."""
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_POINTS = {"A": 15, "2": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10}
_NUMBER = {"A": 1, "J": 11, "Q": 12, "K": 13}


def rank(card: Card) -> Optional[str]:
    """The card's rank (``"A"``, ``"2"`` ... ``"K"``), ``None`` for a joker."""
    return None if card == JOKER else card[:-1]


def suit(card: Card) -> Optional[str]:
    """The card's suit letter, ``None`` for a joker."""
    return None if card == JOKER else card[-1]


def is_wild(card: Card) -> bool:
    """Jokers and every 2 are wilds ("matte"); a sequence's own 2 on position 2 is natural."""
    return card == JOKER or card[:-1] == "2"


def points(card: Card) -> int:
    """Joker 30, 2 20, A 15, K Q J 10 9 8 10 each, 7 to 3 5 each (RULES.md section 2)."""
    if card == JOKER:
        return 30
    return _POINTS.get(card[:-1], 5)


def rank_number(r: str) -> int:
    """A rank's sequence position: A 1 (an ace may also stand on 14), 2..10, J 11, Q 12, K 13."""
    return _NUMBER.get(r) or int(r)


def natural_at(suit_letter: str, pos: int) -> Card:
    """The natural card of a suit on a sequence position (1 and 14 are both the ace)."""
    if pos in (1, 14):
        return "A" + suit_letter
    return {11: "J", 12: "Q", 13: "K"}.get(pos, str(pos)) + suit_letter


def is_valid(card: str) -> bool:
    return card == JOKER or (len(card) >= 2 and card[-1] in SUITS and card[:-1] in RANKS)


def contains_all(hand: Iterable[Card], cards: Iterable[Card]) -> bool:
    """Whether ``hand`` holds every card of ``cards``, copies counted."""
    have = Counter(hand)
    need = Counter(cards)
    return all(have[c] >= n for c, n in need.items())


def without(hand: Iterable[Card], cards: Iterable[Card]) -> list[Card]:
    """``hand`` with one copy of each card of ``cards`` taken out."""
    left = list(hand)
    for c in cards:
        left.remove(c)
    return left


def norma_key(card: Card) -> tuple[int, int, int]:
    """Sorts "secondo norma" (RULES.md section 2): highest value first, then suit order H D C S,
    then rank order (joker, 2, A, K ... 3). The server's automatic discard takes the first."""
    r = rank(card)
    rank_order = -1 if r is None else ("2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4",
                                       "3").index(r)
    s = suit(card)
    return (-points(card), -1 if s is None else SUITS.index(s), rank_order)
