"""The moves of a turn (docs/PROTOCOL.md section 3, "Game requests"), as values a strategy
returns: take (``Draw`` or ``PickUp``), then any number of ``Open``/``Attach``, then ``Discard``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Union

from .cards import Card


@dataclass(frozen=True)
class Draw:
    """Draw the top card of the tallone."""

    def request(self, table: str) -> dict[str, Any]:
        return {"type": "draw", "id": 0, "table": table}


@dataclass(frozen=True)
class PickUp:
    """Pick up the whole discard pile."""

    def request(self, table: str) -> dict[str, Any]:
        return {"type": "pick_up", "id": 0, "table": table}


@dataclass(frozen=True)
class Open:
    """Lay a new meld. ``wild_at``: the sequence position (1-14) of its wild when more than one
    is valid; ``None`` lets the server place it."""

    cards: tuple[Card, ...]
    wild_at: Optional[int] = None

    def request(self, table: str) -> dict[str, Any]:
        return {"type": "open", "id": 0, "table": table, "cards": list(self.cards),
                "wild_at": self.wild_at}


@dataclass(frozen=True)
class Attach:
    """Add cards to one of your side's melds (``meld`` is its id)."""

    meld: int
    cards: tuple[Card, ...]
    wild_at: Optional[int] = None

    def request(self, table: str) -> dict[str, Any]:
        return {"type": "attach", "id": 0, "table": table, "meld": self.meld,
                "cards": list(self.cards), "wild_at": self.wild_at}


@dataclass(frozen=True)
class Discard:
    """Discard one card: ends the turn (the last card closes, when allowed)."""

    card: Card

    def request(self, table: str) -> dict[str, Any]:
        return {"type": "discard", "id": 0, "table": table, "card": self.card}


Take = Union[Draw, PickUp]
MeldMove = Union[Open, Attach]
Action = Union[Draw, PickUp, Open, Attach, Discard]
