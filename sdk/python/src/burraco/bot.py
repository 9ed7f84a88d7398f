"""The runtime: a :class:`Bot` takes a seat, plays a :class:`Strategy` through whole matches
and tournaments, and survives dropped connections (docs/BOTS.md, "The protocol recipe")."""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from .actions import Action, Discard, Draw
from .cards import norma_key
from .connection import REPLY_TYPES, Connection, Dropped, Message
from .errors import BurracoError, ErrorCode, Rule, ServerError, SessionTakenOver, TokenRevoked
from .legal import LegalMoves, fallback_move, legal_moves
from .state import TableState
from .strategy import Strategy

log = logging.getLogger("burraco")

LEVELS = ("random", "greedy", "expert", "search", "deep")
"""The server bots' levels, L0 to L4 (docs/BOTS.md; "deep", L4, needs protocol 1.8)."""

# Refusals in one turn after which the SDK plays a legal move itself, and after which it asks
# the server for the state instead (what it believes must be wrong).
FALLBACK_AFTER = 3
RESYNC_AFTER = 5
# Refusals that say "not now" rather than "no": the same request is sent again after a pause.
RETRY_LATER = frozenset({ErrorCode.RATE_LIMITED, ErrorCode.TABLE_BUSY, ErrorCode.SHUTTING_DOWN})
RETRY_DELAY = 0.25
# How often a table waiting for players says so again.
WAITING_REMINDER_SECS = 15.0


@dataclass(frozen=True)
class QuickPlay:
    """The first open public table of that kind, or a new one."""

    preset: str = "fitab"
    players: int = 4


@dataclass(frozen=True)
class CreateTable:
    """A new table (you sit North). ``bots``: a level, to fill every other seat with server
    bots at once; ``hands`` or ``target`` (points); ``clocks`` ``federation``/``relaxed``/``off``
    (``None``: the preset's, relaxed at a table with bots)."""

    preset: str = "fitab"
    players: int = 4
    hands: Optional[int] = None
    target: Optional[int] = None
    clocks: Optional[str] = None
    private: bool = False
    bots: Optional[str] = None
    semipulito: Optional[bool] = None
    close_requires_pulito: Optional[bool] = None

    def request(self) -> Message:
        return {"type": "create_table", "settings": {
            "preset": self.preset, "players": self.players, "hands": self.hands,
            "target": self.target, "clocks": self.clocks, "semipulito": self.semipulito,
            "close_requires_pulito": self.close_requires_pulito},
            "private": self.private, "bots": self.bots}


@dataclass(frozen=True)
class JoinTable:
    """A public table by id, or a private one by its invite code; ``seat`` ``None``: the first
    free one."""

    table: Optional[str] = None
    invite: Optional[str] = None
    seat: Optional[str] = None


SeatRequest = Union[QuickPlay, CreateTable, JoinTable]


@dataclass
class MatchResult:
    table: str
    seat: str
    side: str
    sides: list[str]
    totals: list[int]
    winner: Optional[str]
    vp: Optional[list[int]]
    hands: int

    @property
    def won(self) -> bool:
        return self.winner == self.side

    @property
    def margin(self) -> int:
        """Your side's points minus the other's."""
        mine = self.sides.index(self.side)
        return self.totals[mine] - self.totals[1 - mine]


@dataclass
class TournamentResult:
    tournament: str
    entrant: int
    standings: list[dict[str, Any]]
    matches: list[MatchResult] = field(default_factory=list)

    @property
    def my_line(self) -> Optional[dict[str, Any]]:
        return next((s for s in self.standings if s["entrant"] == self.entrant), None)


@dataclass
class ArenaResult:
    """An arena match (docs/BOTS.md, "The arena"): the same deals at two tables, the seats
    swapped; rated by the server, once, when both ended."""

    arena: str
    opponent: str
    opponent_account: Optional[str]
    server_bot: Optional[str]
    """The opponent's level ("L0"-"L3") when it is a server bot."""
    matches: list[MatchResult] = field(default_factory=list)

    @property
    def margin(self) -> int:
        """Your points minus the opponent's over both tables: the luck of the cards cancels."""
        return sum(m.margin for m in self.matches)


class SeatLost(BurracoError):
    """A resume found the seat gone (the session expired, or the server forgot it)."""


class _Table:
    """One table's play: the state and the requests on their way."""

    def __init__(self, table: str, seat: Optional[str]) -> None:
        self.reset(table, seat)

    def reset(self, table: str, seat: Optional[str]) -> None:
        """A fresh start at ``table`` (a seat quick play moved us to, protocol 1.9)."""
        self.state = TableState(table, you=seat)
        self.snapshot_seen = False
        self.sync_id: Optional[int] = None
        self.action_id: Optional[int] = None
        self.action: Optional[Action] = None
        self.ready_id: Optional[int] = None
        self.refusals = 0
        self.melding_done = False
        self.announced: Optional[tuple[int, int]] = None
        self.filling = False
        self.resynced_for_no_move = False
        self.legal: Optional[tuple[tuple[int, Optional[str], tuple[str, ...]], LegalMoves]] = None


class Bot:
    """A player: one connection, one :class:`Strategy`, one table at a time.

    ``token``: an account's token, for servers whose protocol takes one (from 1.4); the server
    of protocol 1.3 has none, and connecting with a token raises :class:`TokenNotSupported`.
    ``drop_after_discards``: cut the connection once after that many own discards (to exercise
    the resume path).
    """

    def __init__(self, url: str, name: str, strategy: Optional[Strategy] = None, *,
                 token: Optional[str] = None, drop_after_discards: Optional[int] = None) -> None:
        self.conn = Connection(url, name, token=token)
        self.strategy = strategy or Strategy()
        self.drop_after_discards = drop_after_discards
        self.discards = 0
        self.refused: list[tuple[Action, ServerError]] = []
        """Every move the server refused, with its error (``error.rule``)."""
        self._stash: collections.deque[Message] = collections.deque()
        self._table: Optional[_Table] = None
        self.last_invite: Optional[str] = None
        """The invite code of the private table :meth:`sit` created."""
        self.partner_code: Optional[str] = None
        """A pair's or team's first player's code, from :meth:`play_tournament`'s registration."""

    async def __aenter__(self) -> "Bot":
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        welcome = await self.conn.connect()
        log.info("connected as %s (%s), server protocol %s", welcome.name, welcome.player,
                 welcome.version)

    async def close(self) -> None:
        await self.conn.close()

    @property
    def state(self) -> Optional[TableState]:
        """The table in play (or the last one)."""
        return None if self._table is None else self._table.state

    # ----- lobby --------------------------------------------------------------------------

    async def sit(self, request: SeatRequest = QuickPlay()) -> tuple[str, str]:
        """Takes a seat; returns (table, seat). The table's snapshot and events follow in the
        stream, read by :meth:`play_match`."""
        if isinstance(request, QuickPlay):
            reply = await self.conn.request({"type": "quick_play", "preset": request.preset,
                                             "players": request.players})
        elif isinstance(request, CreateTable):
            reply = await self.conn.request(request.request())
        else:
            reply = await self.conn.request({"type": "join", "table": request.table,
                                             "invite": request.invite, "seat": request.seat})
        self._table = _Table(reply["table"], reply["seat"])
        # Its bots join at once: no "waiting for" lines about seats about to be taken.
        self._table.filling = isinstance(request, CreateTable) and request.bots is not None
        self.last_invite = reply.get("invite")
        if self.last_invite:
            log.info("private table %s: invite code %s", reply["table"], self.last_invite)
        return reply["table"], reply["seat"]

    async def add_bots(self, level: Optional[str] = None, table: Optional[str] = None) -> None:
        """Fills every free seat of your waiting table with a server bot of ``level``
        (``None``: the table's level, else ``expert``)."""
        table = table or (self._table.state.table if self._table else None)
        if table is None:
            raise BurracoError("add_bots: not seated")
        await self.conn.request({"type": "add_bots", "table": table, "level": level})

    async def play(self, request: SeatRequest = QuickPlay(), *,
                   fill_with_bots: Optional[str] = None,
                   bots_after: float = 0.0) -> MatchResult:
        """Sits (``request``) and plays one whole match. ``fill_with_bots``: a level; the seats
        still free ``bots_after`` seconds after sitting get server bots of it."""
        if not self.conn.connected and self.conn.welcome is None:
            await self.connect()
        await self.sit(request)
        return await self.play_match(fill_with_bots=fill_with_bots, bots_after=bots_after)

    # ----- the table loop -----------------------------------------------------------------

    async def play_match(self, *, fill_with_bots: Optional[str] = None,
                         bots_after: float = 0.0) -> MatchResult:
        """Plays the match at the table :meth:`sit` took, to its end."""
        tbl = self._table
        if tbl is None:
            raise BurracoError("play_match: not seated")
        start = time.monotonic()
        fill_at = None if fill_with_bots is None else start + bots_after
        remind_at = start + WAITING_REMINDER_SECS
        tbl.ready_id = await self.conn.send({"type": "ready", "table": tbl.state.table})
        while True:
            now = time.monotonic()
            waiting = tbl.state.status == "waiting"
            wake = [t for t in (fill_at, remind_at if waiting else None) if t is not None]
            try:
                m = await self.conn.recv(max(0.0, min(wake) - now) if wake else None)
            except asyncio.TimeoutError:
                if not tbl.snapshot_seen:
                    # The seats are known from the snapshot: look again in a moment.
                    fill_at = None if fill_at is None else max(fill_at, now + 0.05)
                    continue
                free = self._free_seats(tbl.state)
                if fill_at is not None and now >= fill_at:
                    fill_at = None
                    if waiting and free:
                        log.info("filling %d free seat(s) with server bots (%s)", len(free),
                                 fill_with_bots)
                        tbl.filling = True
                        await self.conn.send({"type": "add_bots", "table": tbl.state.table,
                                              "level": fill_with_bots})
                elif now >= remind_at:
                    remind_at = now + WAITING_REMINDER_SECS
                    if waiting and free:
                        log.info("still waiting for %d more player%s at %s (%.0f s)", len(free),
                                 "" if len(free) == 1 else "s", tbl.state.table, now - start)
                continue
            result = await self._handle(tbl, m)
            if result is not None:
                return result

    @staticmethod
    def _free_seats(state: TableState) -> list[str]:
        return [s for s, info in state.seats.items() if info.name is None]

    async def _handle(self, tbl: _Table, m: Union[Message, Dropped]) -> Optional[MatchResult]:
        state = tbl.state
        if isinstance(m, Dropped):
            await self._resume(tbl, m)
            return None
        t = m.get("type")
        if t in REPLY_TYPES:
            await self._on_reply(tbl, m)
            return None
        if t == "quick_play_moved":
            if m.get("from") == state.table and state.status == "waiting":
                await self._moved(tbl, m)
            return None
        if m.get("table") != state.table or "seq" not in m:
            if t == "goodbye":
                log.info("server stopping: %s", m.get("reason"))
            elif "seq" not in m:
                self._stash.append(m)  # tournament messages: for the tournament loop
            return None
        if t == "snapshot":
            state.apply_snapshot(m)
            tbl.snapshot_seen = True
            await self._maybe_ready(tbl)
            self._announce(tbl)
        else:
            if not tbl.snapshot_seen or m["seq"] <= state.seq:
                return None
            if m["seq"] > state.seq + 1:
                await self._sync(tbl)
                return None
            state.apply(m)
            done = await self._after_event(tbl, m)
            if done is not None:
                return done
        await self._act(tbl)
        return None

    async def _after_event(self, tbl: _Table, m: Message) -> Optional[MatchResult]:
        state = tbl.state
        t = m["type"]
        self.strategy.on_event(state, m)
        if t == "turn_started" and m["seat"] == state.you:
            tbl.refusals, tbl.melding_done, tbl.resynced_for_no_move = 0, False, False
        elif t in ("player_joined", "player_left"):
            self._announce(tbl)
        elif t == "discarded" and m["seat"] == state.you:
            self.discards += 1
            if self.drop_after_discards is not None and self.discards == self.drop_after_discards:
                log.info("cutting the connection after %d discards", self.discards)
                await self.conn.drop()
        elif t == "hand_ended":
            self.strategy.on_hand_ended(state, m)
            log.info("hand %s ended (%s): %s", m["hand"], m["end"],
                     ", ".join(f"{s['side']} {s['total']}" for s in m["score"]))
        elif t == "hand_record":
            await self._maybe_ready(tbl)
        elif t == "match_ended":
            self.strategy.on_match_ended(state, m)
            you = state.you or "S"
            result = MatchResult(state.table, you, state.side_of(you), list(m["sides"]),
                                 list(m["totals"]), m.get("winner"), m.get("vp"),
                                 state.hands_played)
            log.info("match over after %d hands: %s %s, winner %s", result.hands, result.sides,
                     result.totals, result.winner)
            return result
        return None

    def _announce(self, tbl: _Table) -> None:
        """Says what a waiting table waits for, once per change of the seats taken."""
        state = tbl.state
        if state.status != "waiting" or not state.seats or tbl.filling:
            return
        free = len(self._free_seats(state))
        key = (len(state.seats), free)
        if key == tbl.announced:
            return
        tbl.announced = key
        if free == len(state.seats) - 1:
            log.info("seated at %s (%s), alone: waiting for %d more player%s to join", state.table,
                     state.you, free, "" if free == 1 else "s")
        elif free:
            log.info("seated at %s (%s): waiting for %d more player%s (%d of %d seats taken)",
                     state.table, state.you, free, "" if free == 1 else "s",
                     len(state.seats) - free, len(state.seats))
        else:
            log.info("table %s full: the match starts when every player is ready", state.table)

    async def _maybe_ready(self, tbl: _Table) -> None:
        """The ready check (section 4): before the match and between hands, once per wait."""
        state = tbl.state
        me = state.seats.get(state.you or "")
        if tbl.ready_id is not None or me is None or me.ready:
            return
        if state.status in ("waiting", "between_hands"):
            tbl.ready_id = await self.conn.send({"type": "ready", "table": state.table})

    async def _moved(self, tbl: _Table, m: Message) -> None:
        """1.9 ``quick_play_moved``: quick play brought the players of our waiting table to
        another, where a seat is held for us: join it (the snapshot and the ready follow as after
        any seat). If the seat went meanwhile, quick play again for the same kind of table."""
        log.info("quick play moved us from %s to %s (%s)", m["from"], m["table"], m["seat"])
        settings = tbl.state.settings
        try:
            reply = await self.conn.request({"type": "join", "table": m["table"], "invite": None,
                                             "seat": m["seat"]})
        except ServerError as e:
            log.info("the seat held at %s went (%s): quick play again", m["table"], e)
            reply = await self.conn.request({"type": "quick_play",
                                             "preset": settings.get("preset", "fitab"),
                                             "players": settings.get("players", 4)})
        tbl.reset(reply["table"], reply["seat"])

    async def _sync(self, tbl: _Table) -> None:
        if tbl.sync_id is None:
            tbl.sync_id = await self.conn.send({"type": "sync", "table": tbl.state.table,
                                                "last_seq": tbl.state.seq})

    async def _resume(self, tbl: _Table, dropped: Dropped) -> None:
        if dropped.code == 4001:
            raise SessionTakenOver(dropped.code, dropped.reason)
        if dropped.code == 4003:
            raise TokenRevoked(dropped.code, dropped.reason)
        log.info("connection lost (%s %s): resuming", dropped.code, dropped.reason)
        # Replies to what was on its way went to the old connection: the sync tells the rest.
        tbl.sync_id = tbl.action_id = tbl.ready_id = None
        tbl.action = None
        welcome = await self.conn.connect()
        if not any(s.get("table") == tbl.state.table for s in welcome.seats):
            if tbl.state.status == "finished":
                return
            raise SeatLost(f"the seat at {tbl.state.table} is gone (resumed={welcome.resumed})")
        await self._sync(tbl)

    async def _on_reply(self, tbl: _Table, m: Message) -> None:
        ident = m.get("id")
        if ident is None or ident not in (tbl.sync_id, tbl.ready_id, tbl.action_id):
            return
        err = ServerError(m) if m["type"] == "error" else None
        if err is not None and err.code in RETRY_LATER:
            # Not a verdict on the request: ask again in a moment (PROTOCOL.md sections 7, 8).
            log.info("%s: retrying", err)
            await asyncio.sleep(RETRY_DELAY)
        if ident == tbl.sync_id:
            tbl.sync_id = None
            if err is not None:
                if err.code not in RETRY_LATER:
                    raise err
                await self._sync(tbl)
                return
            await self._maybe_ready(tbl)
            await self._act(tbl)
        elif ident == tbl.ready_id:
            tbl.ready_id = None
            if err is not None and err.code in RETRY_LATER:
                await self._maybe_ready(tbl)
            # table_started: the match ended with that hand, or the next hand was dealt first.
            elif err is not None and err.code != ErrorCode.TABLE_STARTED:
                log.warning("ready refused: %s", err)
        else:
            tbl.action_id = None
            action, tbl.action = tbl.action, None
            if err is not None and err.code not in RETRY_LATER:
                await self._refused(tbl, action, err)
            await self._act(tbl)

    async def _refused(self, tbl: _Table, action: Optional[Action], err: ServerError) -> None:
        state = tbl.state
        tbl.refusals += 1
        if action is not None:
            self.refused.append((action, err))
            self.strategy.on_refused(state, action, err)
        log.info("refused %s: %s", action, err)
        stale = (err.code != ErrorCode.ILLEGAL_ACTION
                 or err.rule in (Rule.NOT_YOUR_TURN, Rule.HAND_OVER)
                 or (err.rule == Rule.ALREADY_TAKEN and state.phase == "take"))
        if stale or tbl.refusals >= RESYNC_AFTER:
            # What we believe is wrong: learn what is.
            tbl.refusals = FALLBACK_AFTER
            await self._sync(tbl)

    async def _act(self, tbl: _Table) -> None:
        """Our next move, when it is our turn and nothing is on its way."""
        state = tbl.state
        if (tbl.sync_id is not None or tbl.action_id is not None or not state.my_turn
                or state.hand is None):
            return
        # The legal moves change only with an event: a refused move is decided again on the
        # same lists (a big hand's enumeration takes tens of milliseconds).
        key = (state.seq, state.phase, tuple(state.hand))
        if tbl.legal is None or tbl.legal[0] != key:
            tbl.legal = (key, legal_moves(state))
        legal = tbl.legal[1]
        action: Optional[Action]
        if not legal.takes and not legal.discards:
            # The rules always leave the seat on turn a move: what we believe must be wrong.
            # Learn the state once; if it still shows no move, let the server judge a plain one.
            if not tbl.resynced_for_no_move:
                tbl.resynced_for_no_move = True
                await self._sync(tbl)
                return
            if state.phase == "take":
                legal.takes.append(Draw())
            else:
                legal.discards.extend(Discard(c) for c in sorted(set(state.hand), key=norma_key))
        if tbl.refusals >= FALLBACK_AFTER:
            action = fallback_move(state)
        elif state.phase == "take":
            action = self.strategy.take(state, legal)
        else:
            action = None
            if not tbl.melding_done:
                action = self.strategy.meld(state, legal)
                if action is None:
                    tbl.melding_done = True
            if action is None:
                action = self.strategy.discard(state, legal)
        if action is None:
            await self._sync(tbl)
            return
        tbl.action = action
        tbl.action_id = await self.conn.send(action.request(state.table))

    # ----- tournaments --------------------------------------------------------------------

    async def play_tournament(self, tournament: str, *, partner_code: Optional[str] = None,
                              bot: bool = True, invite: Optional[str] = None,
                              registered: bool = False) -> TournamentResult:
        """Registers (unless ``registered``) and plays every match the tournament sends this
        player to (``go_to_table``), until its last ``tournament_update`` (``finished``).
        ``partner_code``: a pair's or team's later player joins its first player's entrant;
        ``invite``: an invite-only list's code."""
        if self.conn.welcome is None:
            await self.connect()
        entrant = -1
        if not registered:
            if invite is None:
                reply = await self.conn.request({"type": "register_tournament",
                                                 "tournament": tournament,
                                                 "partner_code": partner_code, "bot": bot})
            else:
                reply = await self.conn.request({"type": "register_invited",
                                                 "tournament": tournament, "invite": invite,
                                                 "partner_code": partner_code, "bot": bot})
            entrant = reply["entrant"]
            self.partner_code = reply.get("partner_code")
            log.info("registered in %s as entrant %d", tournament, entrant)
        result = TournamentResult(tournament, entrant, [])
        played: set[str] = set()
        while True:
            m = self._stash.popleft() if self._stash else await self.conn.recv()
            if isinstance(m, Dropped):
                if m.code == 4001:
                    raise SessionTakenOver(m.code, m.reason)
                if m.code == 4003:
                    raise TokenRevoked(m.code, m.reason)
                await self.conn.connect()  # go_to_table comes again if a match is owed
                continue
            if m.get("tournament") != tournament:
                continue
            if m["type"] == "go_to_table" and m["table"] not in played:
                played.add(m["table"])
                log.info("round %s: table %s, seat %s", m["round"], m["table"], m["seat"])
                await self.sit(JoinTable(table=m["table"], seat=m["seat"]))
                result.matches.append(await self.play_match())
            elif m["type"] == "tournament_update":
                result.standings = list(m["standings"])
                if m["status"] == "finished":
                    return result

    # ----- the arena (protocol 1.7) ------------------------------------------------------

    async def arena(self, level: Optional[str] = None, *,
                    challenge: Optional[str] = None) -> ArenaResult:
        """One arena match, for a bot account (its token with ``play``): says it is ready
        (``level``: the server bot to meet when no other bot is ready, "L0"-"L3"; ``None``:
        "L2"), or ``challenge``s a level or a ready bot account (its id or username) at once;
        then plays both tables of the match it is given, in order. Refusals raise
        :class:`ServerError` (``BOT_ACCOUNT_REQUIRED``, ``ARENA_DAILY_CAP``,
        ``OPPONENT_UNAVAILABLE``, ``MISSING_SCOPE``)."""
        if self.conn.welcome is None:
            await self.connect()
        if challenge is None:
            queued = await self.conn.request({"type": "arena_ready", "level": level})
        else:
            queued = await self.conn.request({"type": "arena_challenge", "opponent": challenge})
        log.info("arena: %s (%d of %d matches today)",
                 "waiting for an opponent" if queued["waiting"] else "challenge accepted",
                 queued["matches_today"], queued["daily_cap"])
        while True:
            m = self._stash.popleft() if self._stash else await self.conn.recv()
            if isinstance(m, Dropped):
                if m.code == 4001:
                    raise SessionTakenOver(m.code, m.reason)
                if m.code == 4003:
                    raise TokenRevoked(m.code, m.reason)
                # The queue forgets a closed connection: say ready again on the new one.
                await self.conn.connect()
                return await self.arena(level, challenge=challenge)
            if m.get("type") == "arena_match":
                break
        result = ArenaResult(m["arena"], m["opponent"], m.get("opponent_account"),
                             m.get("server_bot"))
        log.info("arena match %s against %s", result.arena, result.opponent)
        for table in m["tables"]:
            await self.sit(JoinTable(table=table["table"], seat=table["seat"]))
            result.matches.append(await self.play_match())
        return result

    async def create_tournament(self, settings: dict[str, Any]) -> tuple[str, str]:
        """Creates a tournament (you direct it): returns its id and the director token."""
        reply = await self.conn.request({"type": "create_tournament", "settings": settings})
        return reply["tournament"], reply["director_token"]

    async def start_round(self, tournament: str, director: str) -> None:
        await self.conn.request({"type": "start_round", "tournament": tournament,
                                 "director": director})


__all__ = ["ArenaResult", "Bot", "CreateTable", "JoinTable", "LEVELS", "MatchResult", "QuickPlay", "SeatLost",
           "SeatRequest", "TournamentResult", "Discard"]
