"""A table as one seat sees it, kept from the snapshot and the events (docs/PROTOCOL.md
sections 4 and 11): seats, your hand, melds, the pile, the tallone, pozzetti, clocks, scores."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from .cards import Card
from .melds import Meld

SEATS_4 = ("N", "E", "S", "W")
SEATS_2 = ("N", "S")


@dataclass
class SeatInfo:
    seat: str
    name: Optional[str] = None
    """``None``: the seat is free."""
    bot: bool = False
    connected: bool = False
    ready: bool = False
    cards: Optional[int] = None
    """Cards held, ``None`` before the first deal."""


@dataclass
class TableState:
    table: str
    you: Optional[str] = None
    settings: dict[str, Any] = field(default_factory=dict)
    status: str = "waiting"
    """``waiting``, ``playing``, ``between_hands``, ``finished``."""
    seats: dict[str, SeatInfo] = field(default_factory=dict)
    sides: list[str] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    hands_played: int = 0
    # The hand in play (or just over).
    hand_number: int = 0
    dealer: Optional[str] = None
    on_turn: Optional[str] = None
    phase: Optional[str] = None
    """``take``, ``play``, ``over``; ``None`` between a discard and the next turn, or before a
    hand."""
    hand: Optional[list[Card]] = None
    """Your cards; ``None`` for a spectator, before the deal, and while a pozzetto taken con lo
    scarto is not yet yours to see."""
    melds: list[Meld] = field(default_factory=list)
    """Every meld on the table, both sides, by id."""
    pile: list[Card] = field(default_factory=list)
    """The discard pile, bottom first: its last card is the top."""
    tallone: int = 0
    pozzetti: list[Optional[str]] = field(default_factory=lambda: [None, None])
    """Who took pozzetto A and B (a side label), ``None`` while untaken."""
    picked_single_card: Optional[Card] = None
    """A single card picked up this turn, which its taker may not discard (art. 8)."""
    picked_up_this_turn: int = 0
    """How many cards the seat on turn picked up this turn (0: it drew). Unknown after a
    snapshot taken mid-turn, where it reads 0."""
    turns_this_hand: Optional[int] = None
    """Turns started in this hand, counting the one in play; ``None`` when not known (after a
    snapshot): the first round is then taken as over."""
    commitment: Optional[str] = None
    time_out: bool = False
    last_round: Optional[int] = None
    stallo_exchanges: int = 0
    stallo_must_draw: Optional[str] = None
    # Clocks, as monotonic deadlines (time.monotonic()), None when not running.
    move_clock_ms: Optional[int] = None
    grace_ms: Optional[int] = None
    move_deadline: Optional[float] = None
    in_grace: bool = False
    round_clock_ms: Optional[int] = None
    round_deadline: Optional[float] = None
    # What the hand showed so far.
    discards: list[tuple[str, Card]] = field(default_factory=list)
    """Every discard of this hand, in order: (seat, card)."""
    picked_up: dict[str, list[Card]] = field(default_factory=dict)
    """The cards each seat was seen picking up this hand."""
    last_hand_ended: Optional[dict[str, Any]] = None
    match_ended: Optional[dict[str, Any]] = None
    seq: int = 0
    """The last table event applied."""

    # ----- derived ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return int(self.settings.get("players") or len(self.seats) or 4)

    @property
    def preset(self) -> str:
        return str(self.settings.get("preset") or "fitab")

    def side_of(self, seat: str) -> str:
        """A seat's side label: ``NS``/``EW``, or head to head the seat itself."""
        if self.players == 2:
            return seat
        return "NS" if seat in ("N", "S") else "EW"

    @property
    def my_side(self) -> Optional[str]:
        return None if self.you is None else self.side_of(self.you)

    def my_melds(self) -> list[Meld]:
        return [m for m in self.melds if m.side == self.my_side]

    def their_melds(self) -> list[Meld]:
        return [m for m in self.melds if m.side != self.my_side]

    def has_pozzetto(self, side: Optional[str] = None) -> bool:
        side = side or self.my_side
        return side is not None and side in self.pozzetti

    @property
    def my_turn(self) -> bool:
        return self.you is not None and self.on_turn == self.you and self.phase in ("take", "play")

    @property
    def top_of_pile(self) -> Optional[Card]:
        return self.pile[-1] if self.pile else None

    def move_clock_left(self) -> Optional[float]:
        """Seconds left to the seat on turn, grace included (``None`` without clocks)."""
        if self.move_deadline is None:
            return None
        return max(0.0, self.move_deadline - time.monotonic())

    def round_clock_left(self) -> Optional[float]:
        if self.round_deadline is None:
            return None
        return max(0.0, self.round_deadline - time.monotonic())

    def cards_of(self, seat: str) -> Optional[int]:
        info = self.seats.get(seat)
        return None if info is None else info.cards

    # ----- folding ------------------------------------------------------------------------

    def apply_snapshot(self, m: Mapping[str, Any]) -> None:
        view = m["view"]
        now = time.monotonic()
        self.seq = m["seq"]
        self.you = view.get("you")
        self.settings = dict(view.get("settings") or {})
        self.status = view["status"]
        self.seats = {s["seat"]: SeatInfo(s["seat"], s.get("name"), bool(s.get("bot")),
                                          bool(s.get("connected")), bool(s.get("ready")),
                                          s.get("cards")) for s in view["seats"]}
        self.sides = list(view.get("sides") or [])
        self.totals = list(view.get("totals") or [])
        self.hands_played = view.get("hands_played", 0)
        left = view.get("round_clock_left_ms")
        self.round_deadline = None if left is None else now + left / 1000
        self.time_out = bool(view.get("time_out"))
        h = view.get("hand")
        self.discards, self.picked_up = [], {}
        if h is None:
            self.hand, self.melds, self.pile, self.phase = None, [], [], None
            return
        self.hand_number = h["number"]
        self.dealer = h["dealer"]
        self.on_turn = h["on_turn"]
        self.phase = h["phase"]
        self.hand = None if h.get("hand") is None else list(h["hand"])
        self.melds = [Meld.from_wire(x) for x in h.get("melds") or []]
        self.pile = list(h.get("pile") or [])
        self.tallone = h.get("tallone", 0)
        self.pozzetti = list(h.get("pozzetti") or [None, None])
        self.picked_single_card = h.get("picked_single_card")
        self.picked_up_this_turn = 1 if self.picked_single_card else 0
        self.turns_this_hand = None
        self.commitment = h.get("commitment")
        mc = h.get("move_clock_left_ms")
        self.move_deadline = None if mc is None else now + mc / 1000
        self.last_round = h.get("last_round")
        self.stallo_exchanges = h.get("stallo_exchanges", 0)
        self.stallo_must_draw = h.get("stallo_must_draw")

    def _seat(self, seat: str) -> SeatInfo:
        if seat not in self.seats:
            self.seats[seat] = SeatInfo(seat)
        return self.seats[seat]

    def _add_cards(self, seat: str, n: int) -> None:
        info = self._seat(seat)
        info.cards = (info.cards or 0) + n

    def _mine(self, m: Mapping[str, Any]) -> bool:
        return self.you is not None and m.get("seat") == self.you

    def apply(self, m: Mapping[str, Any]) -> None:
        """Folds one table event (already checked to be the next in ``seq`` order)."""
        t = m["type"]
        if "seq" in m:
            self.seq = m["seq"]
        handler = getattr(self, "_on_" + t, None)
        if handler is not None:
            handler(m)

    def _on_player_joined(self, m: Mapping[str, Any]) -> None:
        s = self._seat(m["seat"])
        s.name, s.bot, s.connected, s.ready = m["name"], bool(m.get("bot")), True, False

    def _on_player_left(self, m: Mapping[str, Any]) -> None:
        s = self._seat(m["seat"])
        if self.status == "waiting":
            s.name, s.bot, s.connected, s.ready = None, False, False, False
        else:
            s.connected = False

    def _on_player_ready(self, m: Mapping[str, Any]) -> None:
        self._seat(m["seat"]).ready = True

    def _on_player_disconnected(self, m: Mapping[str, Any]) -> None:
        if "seat" in m:
            self._seat(m["seat"]).connected = False

    def _on_player_reconnected(self, m: Mapping[str, Any]) -> None:
        s = self._seat(m["seat"])
        s.connected, s.bot = True, False

    def _on_player_replaced_by_bot(self, m: Mapping[str, Any]) -> None:
        s = self._seat(m["seat"])
        s.bot, s.connected = True, True

    def _on_match_started(self, m: Mapping[str, Any]) -> None:
        self.status = "playing"
        ms = m.get("round_clock_ms")
        self.round_clock_ms = ms
        self.round_deadline = None if ms is None else time.monotonic() + ms / 1000
        if not self.totals:
            self.totals = [0, 0]

    def _on_hand_started(self, m: Mapping[str, Any]) -> None:
        self.status = "playing"
        self.hand_number = m["hand"]
        self.dealer = m["dealer"]
        self.on_turn = m["first"]
        self.phase = None
        self.hand = None
        self.melds = []
        self.pile = [m["up_card"]]
        # 108 cards: 11 to each player, 22 in the pozzetti, the up card; the rest is the tallone.
        self.tallone = 108 - 11 * self.players - 22 - 1
        self.pozzetti = [None, None]
        self.picked_single_card = None
        self.picked_up_this_turn = 0
        self.turns_this_hand = 0
        self.commitment = m.get("commitment")
        self.stallo_exchanges = 0
        self.stallo_must_draw = None
        self.discards, self.picked_up = [], {}
        for info in self.seats.values():
            info.cards = 11
            info.ready = False

    def _on_dealt(self, m: Mapping[str, Any]) -> None:
        self.hand = list(m["cards"])

    def _on_turn_started(self, m: Mapping[str, Any]) -> None:
        self.on_turn = m["seat"]
        self.phase = "take"
        self.picked_single_card = None
        self.picked_up_this_turn = 0
        if self.turns_this_hand is not None:
            self.turns_this_hand += 1
        self.move_clock_ms, self.grace_ms = m.get("clock_ms"), m.get("grace_ms")
        self.in_grace = False
        if self.move_clock_ms is None:
            self.move_deadline = None
        else:
            self.move_deadline = time.monotonic() + (self.move_clock_ms + (self.grace_ms or 0)) / 1000

    def _on_grace_started(self, m: Mapping[str, Any]) -> None:
        self.in_grace = True
        self.move_deadline = time.monotonic() + m["grace_ms"] / 1000

    def _on_drew(self, m: Mapping[str, Any]) -> None:
        self.tallone -= 1
        self._add_cards(m["seat"], 1)
        self.phase = "play"

    def _on_drew_card(self, m: Mapping[str, Any]) -> None:
        if self._mine(m) and self.hand is not None:
            self.hand.append(m["card"])

    def _on_picked_up(self, m: Mapping[str, Any]) -> None:
        cards = list(m["cards"])
        if self._mine(m) and self.hand is not None:
            self.hand.extend(cards)
        self._add_cards(m["seat"], len(cards))
        self.picked_up.setdefault(m["seat"], []).extend(cards)
        self.pile = []
        self.phase = "play"
        self.picked_up_this_turn = len(cards)
        self.picked_single_card = cards[0] if len(cards) == 1 else None

    def _lay(self, m: Mapping[str, Any]) -> None:
        cards = list(m["cards"])
        if self._mine(m) and self.hand is not None:
            for c in cards:
                if c in self.hand:
                    self.hand.remove(c)
        self._add_cards(m["seat"], -len(cards))
        meld = Meld.from_wire(m["meld"])
        while len(self.melds) <= meld.id:
            self.melds.append(meld)
        self.melds[meld.id] = meld
        # A copy of art. 8's card melded: the one left may be discarded (RULES.md 4.1).
        if self.picked_single_card in cards:
            self.picked_single_card = None

    _on_opened = _lay
    _on_attached = _lay

    def _on_pozzetto_taken(self, m: Mapping[str, Any]) -> None:
        index = 0 if m["pozzetto"] == "A" else 1
        self.pozzetti[index] = self.side_of(m["seat"])
        self._seat(m["seat"]).cards = 11
        if self._mine(m):
            # Its cards come with `pozzetto_cards`, at once in diretta, later con lo scarto.
            self.hand = None

    def _on_pozzetto_cards(self, m: Mapping[str, Any]) -> None:
        if self._mine(m):
            self.hand = list(m["cards"])

    def _on_discarded(self, m: Mapping[str, Any]) -> None:
        card = m["card"]
        if self._mine(m) and self.hand is not None and card in self.hand:
            self.hand.remove(card)
        self._add_cards(m["seat"], -1)
        self.pile.append(card)
        self.discards.append((m["seat"], card))
        self.phase = None

    def _on_time_out(self, m: Mapping[str, Any]) -> None:
        self.time_out = True
        self.last_round = m["turns_left"]

    def _on_stallo_warning(self, m: Mapping[str, Any]) -> None:
        self.stallo_exchanges = m["exchanges"]

    def _on_stallo(self, m: Mapping[str, Any]) -> None:
        self.stallo_must_draw = m.get("must_draw")

    def _on_hand_ended(self, m: Mapping[str, Any]) -> None:
        self.phase = "over"
        self.status = "between_hands"
        self.hands_played += 1
        self.move_deadline = None
        self.last_hand_ended = dict(m)
        by_side = {s["side"]: s["total"] for s in m.get("score") or []}
        if not self.sides:
            self.sides = [s["side"] for s in m.get("score") or []]
        if len(self.totals) != len(self.sides):
            self.totals = [0] * len(self.sides)
        self.totals = [t + by_side.get(side, 0) for t, side in zip(self.totals, self.sides)]

    def _on_match_ended(self, m: Mapping[str, Any]) -> None:
        self.status = "finished"
        self.sides = list(m["sides"])
        self.totals = list(m["totals"])
        self.match_ended = dict(m)
