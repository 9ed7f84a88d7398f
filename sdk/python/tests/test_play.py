"""The SDK against a real burraco-server on loopback (tests/server.py starts it): whole matches
with SDK bots and server bots, every legal move the SDK lists accepted, a resume after a dropped
socket, a move by quick play (1.9), a refused move's rule, add_bots, a tournament, and the demo."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import subprocess
import sys
import time
import unittest
from typing import Any, Mapping, Optional

from burraco import (Action, Bot, Connection, CreateTable, Discard, Draw, ErrorCode,
                     GreedyStrategy, JoinTable, LegalMoves, MeldMove, Open, QuickPlay, Rule,
                     ServerError,
                     SessionTakenOver, Strategy, TableState, Take, TokenNotSupported, check,
                     points)
from burraco.connection import Dropped
from server import REPO, shared_server, stop_shared

# Every test is bounded: a match of server bots without their pause takes well under a second.
MATCH_TIMEOUT = 60.0


def setUpModule() -> None:
    # IsolatedAsyncioTestCase runs its loop in debug mode, which logs every callback slower than
    # 0.1 s: on a loaded 2-core machine that is noise, not a finding.
    logging.getLogger("asyncio").setLevel(logging.ERROR)
    shared_server()


def tearDownModule() -> None:
    stop_shared()


class RandomLegal(Strategy):
    """Plays a random legal move at every decision, and before each one sometimes proposes a
    random move of its own to the client-side check: the check's verdict must be the server's."""

    def __init__(self, seed: int, probe: bool = False) -> None:
        self.rng = random.Random(seed)
        self.probe = probe
        self.legal_offered = 0
        self.probes: list[tuple[Action, Optional[Rule]]] = []
        self.mismatches: list[str] = []
        self.hands_checked = 0

    def take(self, state: TableState, legal: LegalMoves) -> Take:
        return self.rng.choice(legal.takes)

    def meld(self, state: TableState, legal: LegalMoves) -> Optional[MeldMove]:
        self.legal_offered += len(legal.melds)
        if self.probe and state.hand and len(state.hand) >= 3 and self.rng.random() < 0.3:
            cards = tuple(self.rng.sample(state.hand, 3))
            guess = Open(cards)
            expected = check(state, guess)
            if expected is not None:
                self.probes.append((guess, expected))
                return guess  # the server must refuse it, naming the same rule
        if legal.melds and self.rng.random() < 0.8:
            return self.rng.choice(legal.melds)
        return None

    def discard(self, state: TableState, legal: LegalMoves) -> Discard:
        return self.rng.choice(legal.discards)

    def on_hand_ended(self, state: TableState, event: Mapping[str, Any]) -> None:
        """The state kept from the events must agree with the server's account of the hand."""
        self.hands_checked += 1
        for held in event["hands"]:
            if held["seat"] == state.you and state.hand is not None:
                if sorted(state.hand) != sorted(held["cards"]):
                    self.mismatches.append(f"hand {state.hand} != {held['cards']}")
            if state.cards_of(held["seat"]) != len(held["cards"]):
                self.mismatches.append(f"{held['seat']} holds {len(held['cards'])}, "
                                       f"state says {state.cards_of(held['seat'])}")
        for score in event["score"]:
            melded = sum(points(c) for m in state.melds if m.side == score["side"]
                         for c in m.cards)
            if melded != score["melded"]:
                self.mismatches.append(f"{score['side']} melded {score['melded']}, state {melded}")
            taken = score["side"] in state.pozzetti
            if taken != (score["pozzetto"] == 0):
                self.mismatches.append(f"{score['side']} pozzetto {score['pozzetto']}, "
                                       f"state {state.pozzetti}")

    def on_refused(self, state: TableState, action: Action, error: ServerError) -> None:
        expected = next((rule for a, rule in self.probes if a == action), None)
        if expected is None or error.rule != expected:
            self.mismatches.append(f"{action}: server {error.raw_rule}, client {expected}")


class TestMatches(unittest.IsolatedAsyncioTestCase):
    async def test_a_match_against_server_bots(self) -> None:
        async with Bot(shared_server().url, "greedy-py", GreedyStrategy()) as bot:
            # Clocks left to the table: relaxed at a table with bots (PROTOCOL.md section 3).
            result = await asyncio.wait_for(
                bot.play(CreateTable(hands=2, bots="expert")), MATCH_TIMEOUT)
            self.assertEqual(result.hands, 2)
            self.assertEqual(result.sides, ["NS", "EW"])
            self.assertEqual(result.vp is not None and len(result.vp), 2)
            self.assertEqual(bot.refused, [])
            state = bot.state
            assert state is not None
            # The state followed the whole match: the totals it summed are the server's.
            self.assertEqual(state.status, "finished")
            self.assertEqual(state.hands_played, 2)
            self.assertIsNotNone(state.last_hand_ended)
            self.assertEqual(state.settings["clocks"], "relaxed")
            # Relaxed clocks double the federation's limits: 20, 40 or 80 s by cards held.
            self.assertIn(state.move_clock_ms, (20_000, 40_000, 80_000))

    async def test_four_sdk_bots_play_a_private_match(self) -> None:
        url = shared_server().url
        host = Bot(url, "host", RandomLegal(1))
        await host.connect()
        table, seat = await host.sit(CreateTable(hands=1, private=True, clocks="off"))
        self.assertEqual(seat, "N")
        invite = host.last_invite
        assert invite is not None
        guests = [Bot(url, f"guest{i}", RandomLegal(10 + i)) for i in range(3)]
        for g in guests:
            await g.connect()
        tasks = [asyncio.ensure_future(host.play_match())]
        for g in guests:
            tasks.append(asyncio.ensure_future(g.play(JoinTable(invite=invite))))
        results = await asyncio.wait_for(asyncio.gather(*tasks), MATCH_TIMEOUT)
        self.assertEqual({r.table for r in results}, {table})
        self.assertEqual(len({(tuple(r.totals), r.winner) for r in results}), 1)
        self.assertEqual({r.seat for r in results}, {"N", "E", "S", "W"})
        for b in [host, *guests]:
            self.assertEqual(b.refused, [])
            assert isinstance(b.strategy, RandomLegal)
            self.assertEqual(b.strategy.mismatches, [])
            self.assertEqual(b.strategy.hands_checked, 1)
            await b.close()

    async def test_every_listed_legal_move_is_accepted_and_checks_match_the_server(self) -> None:
        url = shared_server().url
        configs = [(preset, players) for preset in ("fitab", "feburit", "fedibur")
                   for players in (4, 2)]

        async def one(i: int, preset: str, players: int) -> Bot:
            bot = Bot(url, f"rand{i}", RandomLegal(100 + i, probe=True))
            async with bot:
                await asyncio.wait_for(bot.play(CreateTable(
                    preset=preset, players=players, hands=2, bots="greedy", clocks="off")),
                    MATCH_TIMEOUT)
            return bot

        bots = await asyncio.gather(*[one(i, p, n) for i, (p, n) in enumerate(configs * 2)])
        strategies = [b.strategy for b in bots]
        assert all(isinstance(s, RandomLegal) for s in strategies)
        randoms = [s for s in strategies if isinstance(s, RandomLegal)]
        self.assertGreater(sum(s.legal_offered for s in randoms), 200)
        self.assertGreater(sum(len(s.probes) for s in randoms), 10)
        self.assertEqual(sum(s.hands_checked for s in randoms), 2 * len(randoms))
        for b, strategy in zip(bots, randoms):
            self.assertEqual(strategy.mismatches, [])
            probed = {a for a, _ in strategy.probes}
            # Every refusal was a probe's: no move from the legal lists was refused.
            self.assertEqual([(a, str(e)) for a, e in b.refused if a not in probed], [])

    async def test_resume_after_a_dropped_socket(self) -> None:
        async with Bot(shared_server().url, "dropper", GreedyStrategy(),
                       drop_after_discards=2) as bot:
            result = await asyncio.wait_for(
                bot.play(CreateTable(hands=2, bots="greedy", clocks="off")), MATCH_TIMEOUT)
            self.assertEqual(result.hands, 2)
            self.assertGreaterEqual(bot.conn.reconnects, 1)
            self.assertTrue(bot.conn.welcome is not None and bot.conn.welcome.resumed)
            self.assertEqual(bot.refused, [])

    async def test_quick_play_brings_a_bot_to_the_table_whose_player_came_back(self) -> None:
        """1.9: a bot that quick play seated apart (the other table's only player was gone) is
        moved there once that player is back: it joins the seat held for it and they play."""
        url = shared_server().url
        kind = QuickPlay("fitab", 2)
        back = Bot(url, "came-back", GreedyStrategy())
        await back.connect()
        first, _ = await back.sit(kind)
        await back.conn.drop()
        # Gone, its seat waiting out the grace: quick play passes over that table.
        await _until_seats(url, first, lambda seats: not any(s["connected"] for s in seats))
        apart = Bot(url, "apart", GreedyStrategy())
        await apart.connect()
        second, _ = await apart.sit(kind)
        self.assertNotEqual(first, second)
        # Back (play_match resumes the dropped session): the players meet at the older table.
        results = await asyncio.wait_for(
            asyncio.gather(back.play_match(), apart.play_match()), MATCH_TIMEOUT)
        self.assertEqual([r.table for r in results], [first, first])
        self.assertEqual(len({r.seat for r in results}), 2)
        for b in (back, apart):
            self.assertEqual(b.refused, [])
            await b.close()

    async def test_a_refused_move_names_its_rule_and_play_goes_on(self) -> None:
        class Rash(Strategy):
            def __init__(self) -> None:
                self.tried = False
                self.rules: list[Optional[Rule]] = []

            def take(self, state: TableState, legal: LegalMoves) -> Take:
                if not self.tried:
                    self.tried = True
                    return Discard((state.hand or ["KS"])[0])  # type: ignore[return-value]
                return Draw()

            def on_refused(self, state: TableState, action: Action, error: ServerError) -> None:
                self.rules.append(error.rule)

        strategy = Rash()
        async with Bot(shared_server().url, "rash", strategy) as bot:
            result = await asyncio.wait_for(
                bot.play(CreateTable(hands=1, bots="random", clocks="off")), MATCH_TIMEOUT)
            self.assertEqual(result.hands, 1)
            self.assertEqual(strategy.rules, [Rule.MUST_TAKE_FIRST])
            (action, error), = bot.refused
            self.assertIsInstance(action, Discard)
            self.assertEqual(error.raw_rule, "must_take_first")
            self.assertIn("RULES.md", error.message)

    async def test_add_bots_fills_a_quick_play_table(self) -> None:
        async with Bot(shared_server().url, "alone", GreedyStrategy()) as bot:
            result = await asyncio.wait_for(
                bot.play(QuickPlay("feburit", 2), fill_with_bots="greedy", bots_after=0.3),
                MATCH_TIMEOUT)
            self.assertEqual(sorted(result.sides), ["N", "S"])
            state = bot.state
            assert state is not None
            self.assertTrue(all(info.bot for s, info in state.seats.items() if s != state.you))

    async def test_a_session_taken_over_stops_instead_of_resuming(self) -> None:
        url = shared_server().url
        first = Bot(url, "twin", Strategy())
        await first.connect()
        await first.sit(CreateTable(hands=1, clocks="off"))
        playing = asyncio.ensure_future(first.play_match())
        await asyncio.sleep(0.2)
        # Another connection resumes the same session (another tab, another device)...
        second = Bot(url, "twin", Strategy())
        second.conn.session = first.conn.session
        await second.connect()
        assert second.conn.welcome is not None
        self.assertTrue(second.conn.welcome.resumed)
        # ...so the first is closed with 4001 and must not take the session back.
        with self.assertRaises(SessionTakenOver):
            await asyncio.wait_for(playing, 10)
        self.assertEqual(first.conn.reconnects, 0)
        await first.close()
        await second.close()

    async def test_a_token_is_refused_by_a_protocol_1_3_server(self) -> None:
        # A 1.3 server answers hello_token as an unknown first frame.
        server = await asyncio.start_server(_old_server, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            conn = Connection(f"ws://127.0.0.1:{port}/ws", "account", token="brc_x")
            with self.assertRaises(TokenNotSupported):
                await conn.connect(attempts=1)
        finally:
            server.close()

    async def test_an_unknown_token_is_refused(self) -> None:
        conn = Connection(shared_server().url, "account", token="brc_" + "0" * 49)
        with self.assertRaises(ServerError) as refused:
            await conn.connect()
        self.assertEqual(refused.exception.code, ErrorCode.INVALID_TOKEN)

    async def test_a_token_plays_as_its_account_until_revoked(self) -> None:
        http = "http://127.0.0.1:%d" % shared_server().port
        status, headers, _ = await asyncio.to_thread(
            _post, f"{http}/api/signup", {"username": "SdkTokenUser", "password": "correct horse"})
        self.assertEqual(status, 201)
        cookie = headers["set-cookie"].split(";")[0]
        status, _, body = await asyncio.to_thread(
            _post, f"{http}/api/tokens", {"label": "sdk", "scopes": ["play"]}, cookie)
        self.assertEqual(status, 201)
        conn = Connection(shared_server().url, "ignored", token=body["token"])
        welcome = await conn.connect()
        self.assertEqual(welcome.name, "SdkTokenUser")
        self.assertEqual((conn.identity or {}).get("kind"), "player")
        status, _, _ = await asyncio.to_thread(
            _request, "DELETE", f"{http}/api/tokens/{body['id']}", None, cookie)
        self.assertEqual(status, 204)
        dropped = await asyncio.wait_for(conn.recv(), 5)
        self.assertIsInstance(dropped, Dropped)
        assert isinstance(dropped, Dropped)
        self.assertEqual(dropped.code, 4003)
        with self.assertRaises(ServerError) as refused:
            await conn.connect(attempts=1)
        self.assertEqual(refused.exception.code, ErrorCode.INVALID_TOKEN)


async def _until_seats(url: str, table: str, wanted: Any) -> None:
    """Watches ``table`` until its seats, as a spectator's snapshot shows them, satisfy
    ``wanted`` (a fresh look every 50 ms, at most 10 s): wait for a state, never for a time."""
    deadline = time.monotonic() + 10
    watcher = Connection(url, "watcher")
    await watcher.connect()
    try:
        while True:
            await watcher.request({"type": "spectate", "table": table})
            while True:
                m = await asyncio.wait_for(watcher.recv(), 10)
                if isinstance(m, dict) and m.get("type") == "snapshot":
                    break
            if wanted(m["view"]["seats"]):
                return
            await watcher.request({"type": "leave", "table": table})
            if time.monotonic() > deadline:
                raise AssertionError(f"{table}: the seats never got there: {m['view']['seats']}")
            await asyncio.sleep(0.05)
    finally:
        await watcher.close()


class TestArena(unittest.IsolatedAsyncioTestCase):
    async def test_a_bot_account_challenges_a_level_and_plays_both_tables(self) -> None:
        http = "http://127.0.0.1:%d" % shared_server().port
        status, headers, _ = await asyncio.to_thread(
            _post, f"{http}/api/signup", {"username": "SdkArenaBot", "password": "correct horse"})
        self.assertEqual(status, 201)
        cookie = headers["set-cookie"].split(";")[0]
        status, _, _ = await asyncio.to_thread(_post, f"{http}/api/account/bot", {}, cookie)
        self.assertEqual(status, 200)
        status, _, body = await asyncio.to_thread(
            _post, f"{http}/api/tokens", {"label": "arena", "scopes": ["play"]}, cookie)
        self.assertEqual(status, 201)
        async with Bot(shared_server().url, "ignored", GreedyStrategy(),
                       token=body["token"]) as bot:
            result = await asyncio.wait_for(bot.arena(challenge="L0"), 2 * MATCH_TIMEOUT)
        self.assertEqual(result.server_bot, "L0")
        self.assertIsNone(result.opponent_account)
        self.assertTrue(result.arena.startswith("A-"))
        # Both directions of the deals: South at the first table, North at the second.
        self.assertEqual([m.seat for m in result.matches], ["S", "N"])
        self.assertEqual(len({m.table for m in result.matches}), 2)
        # A guest is refused, typed.
        async with Bot(shared_server().url, "SdkArenaGuest") as guest:
            with self.assertRaises(ServerError) as refused:
                await guest.arena()
        self.assertEqual(refused.exception.code, ErrorCode.BOT_ACCOUNT_REQUIRED)


async def _old_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A protocol 1.3 server's answer to hello_token: the WebSocket handshake, then the error an
    unknown first frame gets."""
    import base64
    import hashlib
    head = (await reader.readuntil(b"\r\n\r\n")).decode()
    key = next(line.split(":", 1)[1].strip() for line in head.split("\r\n")
               if line.lower().startswith("sec-websocket-key:"))
    accept = base64.b64encode(hashlib.sha1(
        (key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
    writer.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                  "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
    payload = b'{"type":"error","id":null,"code":"invalid_message","message":"unknown type"}'
    writer.write(bytes([0x81, len(payload)]) + payload)
    await writer.drain()
    await asyncio.sleep(0.5)
    writer.close()


def _request(method: str, url: str, body: Optional[Mapping[str, Any]],
             cookie: Optional[str] = None) -> tuple[int, Mapping[str, str], Any]:
    import json
    import urllib.error
    import urllib.request
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if cookie is not None:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            headers = {k.lower(): v for k, v in response.headers.items()}
            return response.status, headers, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        return e.code, {}, None


def _post(url: str, body: Mapping[str, Any],
          cookie: Optional[str] = None) -> tuple[int, Mapping[str, str], Any]:
    return _request("POST", url, body, cookie)


class TestTournament(unittest.IsolatedAsyncioTestCase):
    async def test_a_sit_and_go_of_four_singles_played_by_sdk_bots(self) -> None:
        url = shared_server().url
        async with Bot(url, "director", Strategy()) as director:
            tournament, _token = await director.create_tournament({
                "name": "SDK singles", "kind": "singles", "rounds": ["danish", "danish"],
                "hands": 1, "preset": "fitab", "max_entrants": 4, "seating": "registration",
                "start_when_full": True, "clocks": "off"})
        players = [Bot(url, f"entrant{i}", RandomLegal(200 + i)) for i in range(4)]

        async def play(b: Bot):  # type: ignore[no-untyped-def]
            async with b:
                return await b.play_tournament(tournament)

        results = await asyncio.wait_for(asyncio.gather(*[play(b) for b in players]), 90)
        for r in results:
            self.assertEqual(len(r.matches), 2)
            self.assertEqual(len(r.standings), 4)
            line = r.my_line
            assert line is not None
            self.assertEqual(line["bot"], True)
        self.assertEqual({tuple(map(str, r.standings)) for r in results}.__len__(), 1)


    async def test_a_pairs_event_with_partner_codes_and_a_dropped_player(self) -> None:
        url = shared_server().url
        async with Bot(url, "director", Strategy()) as director:
            tournament, _token = await director.create_tournament({
                "name": "SDK pairs", "kind": "pairs", "rounds": ["danish"], "hands": 1,
                "preset": "feburit", "max_entrants": 2, "seating": "registration",
                "start_when_full": True, "clocks": "off"})
        firsts = [Bot(url, f"first{i}", RandomLegal(300 + i),
                      drop_after_discards=2 if i == 0 else None) for i in range(2)]
        seconds = [Bot(url, f"second{i}", RandomLegal(310 + i)) for i in range(2)]
        for b in firsts + seconds:
            await b.connect()
        # A pair's first player registers a new entrant and gets the code its partner joins with.
        codes = []
        for b in firsts:
            reply = await b.conn.request({"type": "register_tournament", "tournament": tournament,
                                          "partner_code": None, "bot": True})
            self.assertIsNotNone(reply["partner_code"])
            codes.append(reply["partner_code"])
        runs = [b.play_tournament(tournament, registered=True) for b in firsts]
        runs += [b.play_tournament(tournament, partner_code=code)
                 for b, code in zip(seconds, codes)]
        results = await asyncio.wait_for(asyncio.gather(*runs), 90)
        self.assertGreaterEqual(firsts[0].conn.reconnects, 1)
        tables = {r.matches[0].table for r in results}
        self.assertEqual(len(tables), 1)
        self.assertEqual({r.matches[0].seat for r in results}, {"N", "E", "S", "W"})
        for r in results:
            self.assertEqual(len(r.standings), 2)
            self.assertEqual(sorted(len(line["names"]) for line in r.standings), [2, 2])
        for b in firsts + seconds:
            await b.close()


class TestDemo(unittest.TestCase):
    def run_demo(self, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(REPO / "examples/python/bot.py"), "--url",
                               shared_server().url, *args], capture_output=True, text=True,
                              timeout=timeout)

    def test_one_command_plays_a_match_with_server_bots(self) -> None:
        done = self.run_demo("--name", "demo", "--bots", "expert", "--hands", "1",
                             "--drop-after", "2", timeout=MATCH_TIMEOUT)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("filling 3 free seat(s) with server bots (expert)", done.stdout)
        self.assertIn("resuming", done.stdout)
        self.assertIn("match over after 1 hands", done.stdout)

    def test_the_bot_in_bots_md_plays_a_match(self) -> None:
        text = (REPO / "docs/BOTS.md").read_text()
        block = text.split("<!-- sdk-bot:begin -->")[1].split("<!-- sdk-bot:end -->")[0]
        code = block.split("```python\n")[1].split("```")[0]
        self.assertLess(len(code.splitlines()), 50, "BOTS.md promises a bot in under 50 lines")
        done = subprocess.run([sys.executable, "-c", code, shared_server().url],
                              capture_output=True, text=True, timeout=MATCH_TIMEOUT)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertRegex(done.stdout, r"^NS [+-]\d+ \((won|lost)\)")

    def test_alone_it_says_what_it_waits_for(self) -> None:
        proc = subprocess.Popen([sys.executable, str(REPO / "examples/python/bot.py"), "--url",
                                 shared_server().url, "--name", "lonely", "--preset", "fedibur"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert proc.stdout is not None
            lines = []
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                line = proc.stdout.readline()
                lines.append(line)
                if "alone: waiting for 3 more players" in line:
                    break
            text = "".join(lines)
            self.assertIn("run with --bots expert", text)
            self.assertIn("alone: waiting for 3 more players", text)
        finally:
            os.kill(proc.pid, 15)
            proc.wait(5)
            if proc.stdout is not None:
                proc.stdout.close()


if __name__ == "__main__":
    unittest.main()
