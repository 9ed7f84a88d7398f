"""A bot's decisions: subclass :class:`Strategy` and override the methods you need.

A turn is three kinds of decision (RULES.md section 4): the take, then melds one at a time until
:meth:`Strategy.meld` returns ``None``, then the discard. Each method gets the table as your seat
sees it and the legal moves, worked out client-side; it may also return a move of its own
making, which the server judges: a refused move comes back to :meth:`Strategy.on_refused` with
the rule, and the method is asked again (after three refusals in a turn the SDK plays a legal
move itself).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from .actions import Action, Discard, Draw, MeldMove, Take
from .cards import is_wild, points
from .errors import ServerError
from .legal import LegalMoves
from .state import TableState


class Strategy:
    """The default plays safe: draw, never meld, discard the highest non-wild card."""

    def take(self, state: TableState, legal: LegalMoves) -> Take:
        """Draw (``Draw()``) or pick up the pile (``PickUp()``); ``legal.takes`` lists which
        the rules allow now."""
        return legal.takes[0] if legal.takes else Draw()

    def meld(self, state: TableState, legal: LegalMoves) -> Optional[MeldMove]:
        """One opening (``legal.opens``) or attachment (``legal.attaches``), or ``None`` to go
        on to the discard. Called again after each meld laid."""
        return None

    def discard(self, state: TableState, legal: LegalMoves) -> Discard:
        """The card to discard (``legal.discards``, highest value first): ends the turn."""
        keep_wilds = [d for d in legal.discards if not is_wild(d.card)]
        choices = keep_wilds or legal.discards
        return max(choices, key=lambda d: points(d.card))

    # ----- notifications (optional) -------------------------------------------------------

    def on_event(self, state: TableState, event: Mapping[str, Any]) -> None:
        """Every table event, after it was applied to ``state``."""

    def on_refused(self, state: TableState, action: Action, error: ServerError) -> None:
        """The server refused ``action``; ``error.rule`` names the rule (a :class:`Rule`)."""

    def on_hand_ended(self, state: TableState, event: Mapping[str, Any]) -> None:
        """A hand's ``hand_ended``: ``event["score"]`` has each side's points."""

    def on_match_ended(self, state: TableState, event: Mapping[str, Any]) -> None:
        """The match's ``match_ended``."""


class GreedyStrategy(Strategy):
    """Lays the biggest meld it can, picks up a pile of three or more, discards its least
    useful card: the SDK's demo strategy, a few lines above the default."""

    def take(self, state: TableState, legal: LegalMoves) -> Take:
        from .actions import PickUp

        if len(state.pile) >= 3 and PickUp() in legal.takes:
            return PickUp()
        return super().take(state, legal)

    def meld(self, state: TableState, legal: LegalMoves) -> Optional[MeldMove]:
        moves = legal.melds
        if not moves:
            return None
        return max(moves, key=lambda m: sum(points(c) for c in m.cards))

    def discard(self, state: TableState, legal: LegalMoves) -> Discard:
        hand = state.hand or []
        ranks = [c[:-1] for c in hand]

        def usefulness(d: Discard) -> tuple[bool, bool, int]:
            # Keep wilds and pairs; among lone cards throw the highest value.
            return (is_wild(d.card), ranks.count(d.card[:-1]) > 1, -points(d.card))

        return min(legal.discards, key=usefulness)
