"""One WebSocket to a burraco-server: hello, requests with their replies, the messages in
order, and resuming the session after a drop (docs/PROTOCOL.md sections 2, 3, 6 and 7)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from .errors import (BurracoError, ConnectionLost, ServerError, SessionTakenOver,
                     TokenNotSupported, TokenRevoked)

PROTOCOL_VERSION = "1.9"
"""The version this SDK says in its hello: the last minor it knows (tournaments need 1.1+, an
account's token 1.4, the arena 1.7, L4 server bots 1.8, being moved by quick play 1.9). What 1.5
and 1.6 added that the SDK does not use (``playban``, ``table_paused``) arrives as unasked
messages, which the table loop sets aside."""

TOKEN_MINOR = 4
"""The protocol minor from which a server can take an account token (the first frame
``hello_token``). Protocol 1.3 has none (a new field means a new message, section 2): an older
server refuses that frame, and the SDK raises :class:`TokenNotSupported`."""

# What an older server answers a first frame it does not know.
_OLD_SERVER_REFUSALS = frozenset({"invalid_message", "malformed_frame", "hello_required"})

# The replies a request can get (section 3): every other message is an event or unasked.
REPLY_TYPES = frozenset({"ok", "error", "tables", "table_created", "seated", "pong",
                         "tournament_created", "tournament_registered", "registration_configured",
                         "arena_queued"})

SESSION_TAKEN_OVER = 4001
TOKEN_REVOKED = 4003

# Our own pace: below the server's default limit (100 requests/s, bursts of 200), so a bot that
# answers server bots without a pause is never refused for rate.
RATE_PER_SEC = 80.0
RATE_BURST = 100.0
# A personal token's connections share a bucket of their own (40 requests/s, bursts of 80,
# section 7): a connection signed in by a token keeps below that, or a bot playing the arena's
# two tables back to back is refused for rate. Several connections of one token share it too.
TOKEN_RATE_PER_SEC = 32.0
TOKEN_RATE_BURST = 60.0


@dataclass
class Welcome:
    version: str
    session: str
    player: str
    name: str
    resumed: bool
    seats: list[dict[str, str]] = field(default_factory=list)
    """The seats this session holds: ``{"table": id, "seat": seat}`` each."""

    @property
    def minor(self) -> int:
        try:
            return int(self.version.split(".")[1])
        except (IndexError, ValueError):
            return 0


@dataclass
class Dropped:
    """Put in the message stream when the socket closed: resume, or stop on 4001."""

    code: Optional[int]
    reason: str


Message = dict[str, Any]


class Connection:
    """A session at a server, across reconnections.

    Every message the server sends lands, in order, in :meth:`recv`; a reply also completes the
    :meth:`request` that waits for it. ``session`` is the resume token of the first welcome.
    """

    def __init__(self, url: str, name: str, *, token: Optional[str] = None,
                 version: str = PROTOCOL_VERSION) -> None:
        self.url = url
        self.name = name
        self.token = token
        self.version = version
        self.session: Optional[str] = None
        self.welcome: Optional[Welcome] = None
        self.identity: Optional[Message] = None
        """1.4: ``{"type": "identity", "kind": "guest" | "player" | "bot", "account", "name"}``,
        what the server said right after the last welcome."""
        self.reconnects = 0
        self._ws: Optional[ClientConnection] = None
        self._queue: asyncio.Queue[Union[Message, Dropped]] = asyncio.Queue()
        self._pending: dict[int, asyncio.Future[Message]] = {}
        self._next_id = 0
        self._reader: Optional[asyncio.Task[None]] = None
        self._rate, self._burst = ((TOKEN_RATE_PER_SEC, TOKEN_RATE_BURST) if token is not None
                                   else (RATE_PER_SEC, RATE_BURST))
        self._tokens = self._burst
        self._refilled = time.monotonic()

    # ----- connecting ---------------------------------------------------------------------

    def _minor(self) -> int:
        """The minor version our hello says."""
        try:
            return int(self.version.split(".")[1])
        except (IndexError, ValueError):
            return 0

    async def connect(self, attempts: int = 8) -> Welcome:
        """Opens the socket and says hello (resuming the session once there is one), retrying
        with exponential backoff (0.2 s doubling, at most 5 s)."""
        delay = 0.2
        for attempt in range(attempts):
            try:
                return await self._connect_once()
            except (OSError, asyncio.TimeoutError, ConnectionClosed) as e:
                if attempt + 1 == attempts:
                    raise ConnectionLost(None, f"cannot connect to {self.url}: {e}") from e
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, 5.0)
        raise AssertionError("unreachable")

    async def _connect_once(self) -> Welcome:
        ws = await ws_connect(self.url, open_timeout=10, max_size=2 ** 20)
        hello: Message = {"type": "hello", "version": self.version, "name": self.name,
                          "resume": self.session}
        if self.token is not None:
            # A personal token signs the connection in as its account (1.4): the first frame
            # is hello_token instead, and the account's name replaces ours.
            hello = {**hello, "type": "hello_token", "token": self.token}
        await ws.send(json.dumps(hello))
        raw = await asyncio.wait_for(ws.recv(), 10)
        m = json.loads(raw)
        if m.get("type") == "error":
            await ws.close()
            if self.token is not None and m.get("code") in _OLD_SERVER_REFUSALS:
                raise TokenNotSupported(
                    "the server does not take hello_token (tokens come with protocol "
                    f"1.{TOKEN_MINOR}); connect without one to play as a guest")
            raise ServerError(m)
        if m.get("type") != "welcome":
            await ws.close()
            raise BurracoError(f"expected a welcome, got {m.get('type')}")
        welcome = Welcome(m["version"], m["session"], m["player"], m["name"], m["resumed"],
                          list(m.get("seats") or []))
        if self.token is not None and welcome.minor < TOKEN_MINOR:
            await ws.close()
            raise TokenNotSupported(
                f"the server speaks protocol {welcome.version}, which has no account token "
                f"(tokens come with 1.{TOKEN_MINOR}); connect without one to play as a guest")
        if welcome.minor >= TOKEN_MINOR and self._minor() >= TOKEN_MINOR:
            # Right after the welcome: who we are (guest, player or bot account).
            identity = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if identity.get("type") == "identity":
                self.identity = identity
        if self.welcome is not None:
            self.reconnects += 1
        self.welcome = welcome
        self.session = welcome.session
        self._ws = ws
        self._reader = asyncio.get_running_loop().create_task(self._read(ws))
        return welcome

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                if isinstance(raw, bytes):
                    continue  # we speak JSON: binary frames are not ours
                m = json.loads(raw)
                self._queue.put_nowait(m)
                if m.get("type") in REPLY_TYPES:
                    fut = self._pending.pop(m.get("id") or -1, None)
                    if fut is not None and not fut.done():
                        fut.set_result(m)
        except ConnectionClosed:
            pass
        finally:
            # The sans-I/O protocol object has them in every websockets from 13 on.
            code, reason = ws.protocol.close_code, ws.protocol.close_reason or ""
            err: ConnectionLost = (SessionTakenOver(code, reason) if code == SESSION_TAKEN_OVER
                                   else TokenRevoked(code, reason) if code == TOKEN_REVOKED
                                   else ConnectionLost(code, reason))
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(err)
            self._pending.clear()
            if self._ws is ws:
                self._ws = None
                self._queue.put_nowait(Dropped(code, reason))

    async def close(self) -> None:
        ws, self._ws = self._ws, None
        if ws is not None:
            await ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                pass

    async def drop(self) -> None:
        """Cuts the socket without a close handshake, as a network failure would (for tests and
        demos of the resume path); the stream then gets a :class:`Dropped`."""
        ws = self._ws
        if ws is not None and ws.transport is not None:
            ws.transport.abort()

    @property
    def connected(self) -> bool:
        return self._ws is not None

    # ----- messages -----------------------------------------------------------------------

    async def _pace(self) -> None:
        """Keeps under the server's rate limit (100 requests/s, bursts of 200; a token's 40 and 80,
        section 7) with a token bucket of our own: a refusal for rate would cost a round trip,
        and 50 in a row close the connection."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._refilled) * self._rate)
        self._refilled = now
        if self._tokens < 1:
            await asyncio.sleep((1 - self._tokens) / self._rate)
            self._tokens, self._refilled = 1.0, time.monotonic()
        self._tokens -= 1

    async def send(self, msg: Message) -> int:
        """Sends a request, numbering its ``id``; returns the id (its reply comes in
        :meth:`recv`). A broken socket is noticed by the reader, which queues a ``Dropped``."""
        await self._pace()
        self._next_id += 1
        msg = dict(msg)
        msg["id"] = self._next_id
        ws = self._ws
        if ws is not None:
            try:
                await ws.send(json.dumps(msg))
            except ConnectionClosed:
                pass
        return self._next_id

    async def request(self, msg: Message, timeout: float = 30.0) -> Message:
        """Sends a request and waits for its reply; raises :class:`ServerError` on an ``error``
        and :class:`ConnectionLost` if the socket closes first."""
        if self._ws is None:
            raise ConnectionLost(None, "not connected")
        await self._pace()
        fut: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._next_id += 1
        ident = self._next_id
        msg = dict(msg)
        msg["id"] = ident
        self._pending[ident] = fut
        try:
            await self._ws.send(json.dumps(msg))
        except ConnectionClosed:
            pass  # the reader fails the future
        reply = await asyncio.wait_for(fut, timeout)
        if reply["type"] == "error":
            raise ServerError(reply)
        return reply

    def owns(self, reply_id: Optional[int]) -> bool:
        """Whether a :meth:`request` is waiting for that reply (the stream also carries it)."""
        return reply_id in self._pending

    async def recv(self, timeout: Optional[float] = None) -> Union[Message, Dropped]:
        """The next message the server sent, or a :class:`Dropped` when the socket closed."""
        if not self._queue.empty():
            return self._queue.get_nowait()
        if timeout is None:
            return await self._queue.get()
        return await asyncio.wait_for(self._queue.get(), timeout)
