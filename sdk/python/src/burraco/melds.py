"""Melds (RULES.md section 5): checking an opening or an attachment, and enumerating the ones a
hand can make, with the rule codes the server uses (docs/PROTOCOL.md section 8).

This is a port of the server's own meld logic (``rules/src/meld.rs``) so a bot's legal moves are
worked out before it sends them; the server stays the judge, and a refusal it sends carries the
same ``rule`` code as :class:`MeldError` here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Optional, Union

from .cards import SUITS, Card, is_wild, natural_at, rank, rank_number, suit

MAX_SEQUENCE = 14
MAX_COMBINATION = 9
BURRACO_LEN = 7


class MeldError(Exception):
    """Cards that make no meld, with the rules' stable code (``not_contiguous``, ...)."""

    def __init__(self, rule: str, options: Optional[list[int]] = None) -> None:
        super().__init__(rule if not options else f"{rule} (valid wild positions: {options})")
        self.rule = rule
        self.options = options or []


@dataclass(frozen=True)
class Meld:
    """A meld on the table, as the protocol's ``meld`` object describes it.

    ``kind`` is ``"sequence"`` or ``"combination"``; ``start`` a sequence's lowest position
    (1 = ace low ... 14 = ace high); ``cards`` a sequence's lowest position first; ``wild_at`` the
    position a sequence's wild stands on; ``wild`` a combination's wild card.
    """

    id: int
    side: str
    kind: str
    start: Optional[int]
    cards: tuple[Card, ...]
    wild_at: Optional[int]
    wild: Optional[Card]

    @staticmethod
    def from_wire(m: Mapping[str, Any]) -> "Meld":
        return Meld(id=m["id"], side=m["side"], kind=m["kind"], start=m.get("start"),
                    cards=tuple(m["cards"]), wild_at=m.get("wild_at"), wild=m.get("wild"))

    @property
    def is_sequence(self) -> bool:
        return self.kind == "sequence"

    @property
    def suit(self) -> Optional[str]:
        """A sequence's suit (from its naturals)."""
        if not self.is_sequence:
            return None
        for i, c in enumerate(self.cards):
            if self._wild_index() != i:
                return suit(c)
        return None

    @property
    def rank(self) -> Optional[str]:
        """A combination's rank."""
        if self.is_sequence:
            return None
        for c in self.cards:
            if not is_wild(c):
                return rank(c)
        return None

    def _wild_index(self) -> Optional[int]:
        if self.is_sequence:
            if self.wild_at is None or self.start is None:
                return None
            return self.wild_at - self.start
        if self.wild is None:
            return None
        for i in range(len(self.cards) - 1, -1, -1):
            if self.cards[i] == self.wild:
                return i
        return None

    def has_wild(self) -> bool:
        return self._wild_index() is not None

    def is_burraco(self) -> bool:
        return len(self.cards) >= BURRACO_LEN

    def burraco_kind(self, semipulito: bool = True) -> Optional[str]:
        """``"reale"``, ``"super"``, ``"pulito"``, ``"semipulito"``, ``"sporco"``, or ``None``."""
        n = len(self.cards)
        if n < BURRACO_LEN:
            return None
        index = self._wild_index()
        if index is None:
            if self.is_sequence and n == 13:
                return "reale"
            if not self.is_sequence and n == 8:
                return "super"
            return "pulito"
        beside = (index == 0 or index + 1 == n) if self.is_sequence else True
        return "semipulito" if semipulito and beside and n > 7 else "sporco"

    def _core(self) -> "_Meld":
        return _Meld(kind=self.kind, key=(self.suit if self.is_sequence else self.rank) or "",
                     cards=self.cards, start=self.start or 0, wild=self._wild_index())


# ---------------------------------------------------------------------------------------------
# The port: positions are bits of an int mask (1..14), as in rules/src/meld.rs.


@dataclass(frozen=True)
class _Meld:
    """A meld as the checks see it: its layout, without id and side."""

    kind: str
    key: str  # the suit of a sequence, the rank of a combination
    cards: tuple[Card, ...]
    start: int  # 0 for a combination
    wild: Optional[int]  # the wild's index in ``cards``

    def wild_position(self) -> Optional[int]:
        if self.kind != "sequence" or self.wild is None:
            return None
        return self.start + self.wild

    def wild_is_bound(self) -> bool:
        return self.kind == "sequence" and self.wild is not None and 0 < self.wild < len(
            self.cards) - 1


def _bit(pos: int) -> int:
    return 1 << pos


def _span(lo: int, hi: int) -> int:
    return (_bit(hi) << 1) - _bit(lo)


def _positions(mask: int) -> list[int]:
    return [p for p in range(1, 15) if mask & _bit(p)]


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _ones(mask: int) -> int:
    return bin(mask).count("1")


_NATURAL, _ACE, _SUIT_TWO, _WILD, _FOREIGN = range(5)


def _role(card: Card, s: str) -> tuple[int, int]:
    r, cs = rank(card), suit(card)
    if r == "2" and cs == s:
        return (_SUIT_TWO, 0)
    if r is None or r == "2":
        return (_WILD, 0)
    if cs != s:
        return (_FOREIGN, 0)
    if r == "A":
        return (_ACE, 0)
    return (_NATURAL, rank_number(r))


def _combination(r: str, counts: list[int], wild: Optional[Card]) -> _Meld:
    cards: list[Card] = []
    for s, n in zip(SUITS, counts):
        cards.extend([r + s] * n)
    index = None
    if wild is not None:
        cards.append(wild)
        index = len(cards) - 1
    return _Meld("combination", r, tuple(cards), 0, index)


def _open_combination(r: str, cards: list[Card]) -> _Meld:
    if len(cards) > MAX_COMBINATION:
        raise MeldError("combination_too_long")
    counts = [0, 0, 0, 0]
    wild: Optional[Card] = None
    wilds = 0
    for c in cards:
        if is_wild(c):
            wilds += 1
            wild = c
        else:
            counts[SUITS.index(suit(c) or "H")] += 1
    if wilds > 1:
        raise MeldError("too_many_wilds")
    return _combination(r, counts, wild)


def _attach_combination(meld: _Meld, r: str, cards: list[Card]) -> _Meld:
    for c in cards:
        if not is_wild(c) and rank(c) != r:
            raise MeldError("wrong_card_for_meld")
    if len(meld.cards) + len(cards) > MAX_COMBINATION:
        raise MeldError("combination_too_long")
    return _open_combination(r, list(meld.cards) + cards)


@dataclass
class _Candidate:
    card: Card
    suit_two: bool
    bound: bool
    new: bool


@dataclass
class _Slot:
    """The sequence's wild: ``absent``, ``fixed`` (a bound wild that stays) or ``mover``."""

    kind: str
    card: Card = ""
    pos: int = 0
    suit_two: bool = False
    bound: bool = False


def _resolve(cands: list[_Candidate], naturals: int,
             fixed: Optional[tuple[Card, int]]) -> tuple[int, _Slot, bool]:
    limit = 1 if fixed is not None else 2
    if len(cands) > limit:
        raise MeldError("too_many_wilds")
    two_free = naturals & _bit(2) == 0
    twos = [c for c in cands if c.suit_two and two_free]
    others = [c for c in cands if not (c.suit_two and two_free)]
    forced_two = False
    if fixed is not None:
        if others or len(twos) > 1:
            raise MeldError("too_many_wilds")
        slot = _Slot("fixed", card=fixed[0], pos=fixed[1])
        forced_two = len(twos) == 1
    elif not others and not twos:
        slot = _Slot("absent")
    elif len(others) == 1 and len(twos) <= 1:
        c = others[0]
        slot = _Slot("mover", card=c.card, suit_two=False, bound=c.bound)
        forced_two = len(twos) == 1
    elif not others and len(twos) == 1:
        c = twos[0]
        slot = _Slot("mover", card=c.card, suit_two=True, bound=c.bound)
    elif not others and len(twos) == 2:
        # Two 2s of the suit: one natural on 2, the other the wild; the one from the hand moves.
        c = twos[0] if twos[0].new else twos[1]
        slot = _Slot("mover", card=c.card, suit_two=False, bound=c.bound)
        forced_two = True
    else:
        raise MeldError("too_many_wilds")
    if forced_two:
        naturals |= _bit(2)
    return naturals, slot, forced_two


@dataclass
class _Layout:
    lo: int
    hi: int
    wild: Optional[tuple[Card, int]]

    def wild_at_end(self) -> bool:
        return self.wild is not None and self.wild[1] in (self.lo, self.hi)


@dataclass
class _SeqPlan:
    suit: str
    naturals: int
    ace: Union[str, int]  # "absent", "either", or the position an ace on the table keeps
    wild: _Slot
    forced_two: bool

    def try_layout(self, ace: Optional[int], mover_at: Optional[int]) -> Optional[_Layout]:
        naturals = self.naturals
        if ace is not None:
            if naturals & _bit(ace):
                return None
            naturals |= _bit(ace)
        w = self.wild
        wild: Optional[tuple[Card, int]]
        if w.kind == "absent" and mover_at is None:
            wild = None
        elif w.kind == "fixed" and mover_at is None:
            wild = (w.card, w.pos)
        elif w.kind == "mover" and mover_at is not None and 1 <= mover_at <= 14:
            if w.suit_two and mover_at == 2 and naturals & _bit(2) == 0:
                naturals |= _bit(2)
                wild = None
            else:
                wild = (w.card, mover_at)
        else:
            return None
        if wild is not None:
            if naturals & _bit(wild[1]):
                return None
            occupied = naturals | _bit(wild[1])
        else:
            occupied = naturals
        if _ones(naturals) < 2:
            return None
        lo = _lowest(occupied)
        run = occupied >> lo
        if run & (run + 1):
            return None
        return _Layout(lo, _highest(occupied), wild)

    def layout(self, mover_at: Optional[int]) -> Optional[_Layout]:
        if self.ace == "absent":
            return self.try_layout(None, mover_at)
        if isinstance(self.ace, int):
            return self.try_layout(self.ace, mover_at)
        low = self.try_layout(1, mover_at)
        high = self.try_layout(14, mover_at)
        if low is not None and high is not None and not low.wild_at_end() and high.wild_at_end():
            return high
        return low if low is not None else high

    def options(self) -> int:
        if self.wild.kind != "mover":
            return 0
        mask = 0
        for p in range(1, 15):
            if self.layout(p) is not None:
                mask |= _bit(p)
        return mask

    def select(self, wild_at: Optional[int]) -> _Meld:
        w = self.wild
        if w.kind == "mover":
            pos = wild_at if wild_at is not None else self.default_position(w.suit_two, w.bound)
            lay = self.layout(pos)
            if lay is not None:
                return self.build(lay)
            opts = self.options()
            if opts == 0:
                raise self.failure()
            raise MeldError("wild_position_invalid", _positions(opts))
        if w.kind == "fixed":
            if wild_at is not None and wild_at != w.pos:
                raise MeldError("bound_wild_moved")
            lay = self.layout(None)
            if lay is None:
                raise self.failure()
            return self.build(lay)
        lay = self.layout(None)
        if lay is None:
            raise self.failure()
        if wild_at is not None:
            raise MeldError("wild_position_invalid")
        return self.build(lay)

    def default_position(self, suit_two: bool, bound: bool) -> int:
        opts = self.options()
        if opts == 0:
            raise self.failure()
        low = _lowest(opts)
        if _ones(opts) == 1:
            return low
        if not bound:
            if suit_two and opts & _bit(2):
                return 2
            high = _highest(opts)
            lay_low, lay_high = self.layout(low), self.layout(high)
            if (_ones(opts) == 2 and lay_low is not None and lay_low.lo == low
                    and lay_high is not None and lay_high.hi == high):
                return low
        raise MeldError("wild_position_ambiguous", _positions(opts))

    def failure(self) -> MeldError:
        if self.forced_two:
            without = _SeqPlan(self.suit, self.naturals & ~_bit(2), self.ace, self.wild, False)
            fits = (without.options() != 0 if without.wild.kind == "mover"
                    else without.layout(None) is not None)
            if fits:
                return MeldError("too_many_wilds")
        return MeldError("not_contiguous")

    def build(self, lay: _Layout) -> _Meld:
        cards: list[Card] = []
        index = None
        for i, pos in enumerate(range(lay.lo, lay.hi + 1)):
            if lay.wild is not None and lay.wild[1] == pos:
                index = i
                cards.append(lay.wild[0])
            else:
                cards.append(natural_at(self.suit, pos))
        return _Meld("sequence", self.suit, tuple(cards), lay.lo, index)


def _open_sequence(s: str, cards: list[Card]) -> _SeqPlan:
    naturals = 0
    aces = 0
    duplicate = False
    cands: list[_Candidate] = []
    for c in cards:
        role, pos = _role(c, s)
        if role == _NATURAL:
            if naturals & _bit(pos):
                duplicate = True
            naturals |= _bit(pos)
        elif role == _ACE:
            aces += 1
        elif role == _SUIT_TWO:
            cands.append(_Candidate(c, True, False, True))
        elif role == _WILD:
            cands.append(_Candidate(c, False, False, True))
        else:
            raise MeldError("not_a_meld")
    if len(cards) > MAX_SEQUENCE:
        raise MeldError("sequence_too_long")
    if aces > 1:
        raise MeldError("two_natural_aces")
    if duplicate:
        raise MeldError("wrong_card_for_meld")
    most = _ones(naturals) + aces + (1 if any(c.suit_two for c in cands) else 0)
    if most < 2:
        raise MeldError("too_few_naturals")
    naturals, slot, forced = _resolve(cands, naturals, None)
    return _SeqPlan(s, naturals, "either" if aces == 1 else "absent", slot, forced)


def _attach_sequence(meld: _Meld, s: str, cards: list[Card]) -> _SeqPlan:
    naturals = 0
    ace: Union[str, int] = "absent"
    for i in range(len(meld.cards)):
        pos = meld.start + i
        if meld.wild == i:
            continue
        if pos in (1, MAX_SEQUENCE):
            ace = pos
        else:
            naturals |= _bit(pos)
    added = 0
    new_suit_twos = 0
    two_aces = False
    duplicate = False
    cands: list[_Candidate] = []
    for c in cards:
        role, pos = _role(c, s)
        if role == _FOREIGN:
            raise MeldError("wrong_card_for_meld")
        if role == _NATURAL:
            if (naturals | added) & _bit(pos):
                duplicate = True
            added |= _bit(pos)
        elif role == _ACE:
            if ace == "absent":
                ace = "either"
            else:
                two_aces = True
        elif role == _SUIT_TWO:
            new_suit_twos += 1
            cands.append(_Candidate(c, True, False, True))
        else:
            cands.append(_Candidate(c, False, False, True))
    if len(meld.cards) + len(cards) > MAX_SEQUENCE:
        raise MeldError("sequence_too_long")
    if two_aces:
        raise MeldError("two_natural_aces")
    if duplicate:
        raise MeldError("wrong_card_for_meld")
    fixed: Optional[tuple[Card, int]] = None
    wpos = meld.wild_position()
    if meld.wild is not None and wpos is not None:
        wcard = meld.cards[meld.wild]
        natural_attached = new_suit_twos > 0 if wpos == 2 else bool(added & _bit(wpos))
        bound = meld.wild_is_bound()
        if bound and not natural_attached:
            fixed = (wcard, wpos)
        else:
            cands.append(_Candidate(wcard, _role(wcard, s)[0] == _SUIT_TWO, bound, False))
    naturals, slot, forced = _resolve(cands, naturals | added, fixed)
    return _SeqPlan(s, naturals, ace, slot, forced)


_Plan = Union[_Meld, _SeqPlan]


def _plan_open(cards: list[Card]) -> _Plan:
    if len(cards) < 3:
        raise MeldError("meld_too_few_cards")
    naturals = [c for c in cards if not is_wild(c)]
    if not naturals:
        raise MeldError("combination_of_wilds")
    first = naturals[0]
    one_rank = all(rank(c) == rank(first) for c in naturals)
    one_suit = all(suit(c) == suit(first) for c in naturals)
    if one_rank and len(naturals) >= 2:
        return _open_combination(rank(first) or "", cards)
    if one_suit:
        return _open_sequence(suit(first) or "", cards)
    raise MeldError("not_a_meld")


def _plan_attach(meld: _Meld, cards: list[Card]) -> _Plan:
    if not cards:
        raise MeldError("meld_too_few_cards")
    if meld.kind == "combination":
        return _attach_combination(meld, meld.key, cards)
    return _attach_sequence(meld, meld.key, cards)


def _select(plan: _Plan, wild_at: Optional[int]) -> _Meld:
    if isinstance(plan, _Meld):
        if wild_at is not None:
            raise MeldError("wild_position_invalid")
        return plan
    return plan.select(wild_at)


def _choices(plan: _Plan, emit: Callable[[Optional[int], _Meld], None]) -> None:
    """Every meld the plan can give, each with the ``wild_at`` that asks for it (``None`` when the
    server would place the wild there by itself)."""
    if isinstance(plan, _Meld):
        emit(None, plan)
        return
    if plan.wild.kind != "mover":
        try:
            emit(None, plan.select(None))
        except MeldError:
            pass
        return
    try:
        default: Optional[_Meld] = plan.select(None)
    except MeldError:
        default = None
    opts = plan.options()
    for pos in range(1, 15):
        if not opts & _bit(pos):
            continue
        lay = plan.layout(pos)
        if lay is not None:
            m = plan.build(lay)
            emit(None if default == m else pos, m)


# ---------------------------------------------------------------------------------------------
# The public checks


@dataclass(frozen=True)
class MeldShape:
    """What cards make, before a side and an id are given: the checks' answer."""

    kind: str
    cards: tuple[Card, ...]
    start: Optional[int]
    wild_at: Optional[int]
    wild: Optional[Card]

    @staticmethod
    def _of(m: _Meld) -> "MeldShape":
        if m.kind == "sequence":
            return MeldShape("sequence", m.cards, m.start, m.wild_position(), None)
        return MeldShape("combination", m.cards, None, None,
                         None if m.wild is None else m.cards[m.wild])

    def is_burraco(self) -> bool:
        return len(self.cards) >= BURRACO_LEN

    def as_meld(self, id: int, side: str) -> Meld:
        return Meld(id, side, self.kind, self.start, self.cards, self.wild_at, self.wild)


def check_open(cards: Iterable[Card], wild_at: Optional[int] = None) -> MeldShape:
    """The meld ``cards`` open (``wild_at`` as the ``open`` request says it), or raises
    :class:`MeldError` with the rule the server would name."""
    return MeldShape._of(_select(_plan_open(list(cards)), wild_at))


def check_attach(meld: Meld, cards: Iterable[Card], wild_at: Optional[int] = None) -> MeldShape:
    """``meld`` with ``cards`` attached, or raises :class:`MeldError`."""
    return MeldShape._of(_select(_plan_attach(meld._core(), list(cards)), wild_at))


@dataclass(frozen=True)
class MeldOption:
    """An opening or attachment a hand can make: the request's cards and ``wild_at``, and the
    meld that results."""

    cards: tuple[Card, ...]
    wild_at: Optional[int]
    result: MeldShape
    meld: Optional[int] = field(default=None)
    """The meld attached to (its id), ``None`` for an opening."""


def _wild_faces(hand: list[Card]) -> list[Card]:
    return [f for f in ["JK"] + ["2" + s for s in SUITS] if f in hand]


def _count(hand: list[Card], card: Card) -> int:
    return sum(1 for c in hand if c == card)


def _for_each_count(have: list[int]) -> Iterable[tuple[list[int], int]]:
    for a in range(have[0] + 1):
        for b in range(have[1] + 1):
            for c in range(have[2] + 1):
                for d in range(have[3] + 1):
                    yield [a, b, c, d], a + b + c + d


def openable(hand: Iterable[Card]) -> list[MeldOption]:
    """Every distinct meld the cards of ``hand`` can open (as the server's ``openable_melds``)."""
    hand = list(hand)
    found: list[MeldOption] = []
    wilds = _wild_faces(hand)
    for r in ("A", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"):
        have = [min(_count(hand, r + s), MAX_COMBINATION) for s in SUITS]
        if sum(have) < 2:
            continue
        for counts, n in _for_each_count(have):
            if 3 <= n <= MAX_COMBINATION:
                m = _combination(r, counts, None)
                found.append(MeldOption(m.cards, None, MeldShape._of(m)))
            if 2 <= n < MAX_COMBINATION:
                for w in wilds:
                    m = _combination(r, counts, w)
                    found.append(MeldOption(m.cards, None, MeldShape._of(m)))
    for s in SUITS:
        _sequences_of(hand, s, wilds, found)
    return found


def _sequences_of(hand: list[Card], s: str, wilds: list[Card], found: list[MeldOption]) -> None:
    suit_twos = _count(hand, "2" + s)
    have = 0
    for pos in range(2, 14):
        if natural_at(s, pos) in hand:
            have |= _bit(pos)
    if "A" + s in hand:
        have |= _bit(1) | _bit(14)
    if _ones(have & ~_bit(14)) < 2:
        return
    for lo in range(1, 13):
        for hi in range(lo + 2, 15):
            missing = _span(lo, hi) & ~have
            n = _ones(missing)
            if n == 0:
                _try_run(s, suit_twos, lo, hi, None, found)
                for hole in range(lo, hi + 1):
                    for w in wilds:
                        _try_run(s, suit_twos, lo, hi, (hole, w), found)
            elif n == 1:
                for w in wilds:
                    _try_run(s, suit_twos, lo, hi, (_lowest(missing), w), found)
            else:
                break


def _try_run(s: str, suit_twos: int, lo: int, hi: int, hole: Optional[tuple[int, Card]],
             found: list[MeldOption]) -> None:
    hole_pos = hole[0] if hole else None
    if lo == 1 and hi == 14 and hole_pos not in (1, 14):
        return
    if lo == 2 and hi == 14 and hole_pos != 14:
        return
    if hole is not None and suit(hole[1]) == s:
        natural_two = lo <= 2 <= hi
        if hole[0] == 2 or (natural_two and suit_twos < 2):
            return
    cards = [natural_at(s, p) for p in range(lo, hi + 1) if p != hole_pos]
    if hole is not None:
        cards.append(hole[1])
    try:
        m = _select(_plan_open(cards), hole_pos)
    except MeldError:
        return
    found.append(MeldOption(tuple(cards), hole_pos, MeldShape._of(m)))


def attachable(meld: Meld, hand: Iterable[Card]) -> list[MeldOption]:
    """Every distinct attachment of cards from ``hand`` to ``meld`` (the server's
    ``attachments``)."""
    hand = list(hand)
    core = meld._core()
    found: list[MeldOption] = []
    wilds = _wild_faces(hand)

    def offer(cards: list[Card]) -> None:
        try:
            plan = _plan_attach(core, cards)
        except MeldError:
            return
        _choices(plan, lambda w, m: found.append(
            MeldOption(tuple(cards), w, MeldShape._of(m), meld.id)))

    if core.kind == "combination":
        r = core.key
        room = MAX_COMBINATION - len(core.cards)
        counts_held = [min(_count(hand, r + s), room) for s in SUITS]
        extra = [] if core.wild is not None else wilds
        for counts, n in _for_each_count(counts_held):
            base = [r + s for s, k in zip(SUITS, counts) for _ in range(k)]
            if 0 < n <= room:
                offer(base)
            if n < room:
                for w in extra:
                    offer(base + [w])
        return found
    s = core.key
    fixed = 0
    for i in range(len(core.cards)):
        if core.wild != i:
            fixed |= _bit(core.start + i)
    have = 0
    for pos in range(3, 14):
        if natural_at(s, pos) in hand:
            have |= _bit(pos)
    if "A" + s in hand and fixed & (_bit(1) | _bit(14)) == 0:
        have |= _bit(1) | _bit(14)
    lo_f, hi_f = _lowest(fixed), _highest(fixed)
    sets: list[int] = [0]

    def add(st: int) -> None:
        if st & _bit(14):
            st = (st & ~_bit(14)) | _bit(1)
        if st not in sets:
            sets.append(st)

    for lo in range(lo_f, 0, -1):
        if _ones(_span(lo, hi_f) & ~fixed & ~_bit(2) & ~have) > 1:
            break
        for hi in range(hi_f, 15):
            free = _span(lo, hi) & ~fixed & ~_bit(2)
            missing = free & ~have
            n = _ones(missing)
            if n == 0:
                if free & _bit(1) == 0 or free & _bit(14) == 0:
                    add(free)
                for pos in range(1, 15):
                    st = free & ~_bit(pos)
                    if free & _bit(pos) and (st & _bit(1) == 0 or st & _bit(14) == 0):
                        add(st)
            elif n == 1:
                st = free & ~missing
                if st & _bit(1) == 0 or st & _bit(14) == 0:
                    add(st)
            else:
                break
    suit_two = "2" + s
    twos = min(_count(hand, suit_two), 2)
    others: list[Optional[Card]] = [None] + [w for w in wilds if w != suit_two]
    for st in sets:
        for k in range(twos + 1):
            for other in others:
                cards = [natural_at(s, p) for p in range(1, 14) if st & _bit(p)]
                cards += [suit_two] * k
                if other is not None:
                    cards.append(other)
                if cards:
                    offer(cards)
    return found
