"""A Python SDK for bots on a burraco-server (docs/BOTS.md, docs/PROTOCOL.md).

    import asyncio
    from burraco import Bot, GreedyStrategy, QuickPlay

    async def main() -> None:
        async with Bot("ws://127.0.0.1:8080/ws", "py", GreedyStrategy()) as bot:
            result = await bot.play(QuickPlay("fitab"), fill_with_bots="expert", bots_after=10)
            print(result.totals, result.won)

    asyncio.run(main())
"""

from .actions import Action, Attach, Discard, Draw, MeldMove, Open, PickUp, Take
from .bot import (LEVELS, ArenaResult, Bot, CreateTable, JoinTable, MatchResult, QuickPlay, SeatLost,
                  SeatRequest, TournamentResult)
from .cards import Card, is_wild, points
from .connection import PROTOCOL_VERSION, Connection, Welcome
from .errors import (BurracoError, ConnectionLost, ErrorCode, Rule, ServerError,
                     SessionTakenOver, TokenNotSupported, TokenRevoked)
from .legal import LegalMoves, check, legal_moves
from .melds import Meld, MeldError, check_attach, check_open
from .state import SeatInfo, TableState
from .strategy import GreedyStrategy, Strategy

__version__ = "0.1.0"

__all__ = [
    "Action", "ArenaResult", "Attach", "Bot", "BurracoError", "Card", "Connection", "ConnectionLost",
    "CreateTable", "Discard", "Draw", "ErrorCode", "GreedyStrategy", "JoinTable", "LEVELS",
    "LegalMoves", "MatchResult", "Meld", "MeldError", "MeldMove", "Open", "PROTOCOL_VERSION",
    "PickUp", "QuickPlay", "Rule", "SeatInfo", "SeatLost", "SeatRequest", "ServerError",
    "SessionTakenOver", "Strategy", "TableState", "Take", "TokenNotSupported",
    "TokenRevoked", "TournamentResult", "Welcome", "check", "check_attach", "check_open", "is_wild",
    "legal_moves", "points",
]
