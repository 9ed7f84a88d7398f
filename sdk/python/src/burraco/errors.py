"""The server's refusals as types: error codes (docs/PROTOCOL.md section 8) and, for an illegal
move, the rule that refused it.

A newer server may send a code this SDK does not know: it becomes ``ErrorCode.UNKNOWN`` (or
``Rule.UNKNOWN``) and the text the server sent stays in ``raw_code`` / ``raw_rule``, as the
protocol asks a client to treat an unknown code: a plain refusal.
"""

from __future__ import annotations

import enum
from typing import Any, Mapping, Optional


class ErrorCode(str, enum.Enum):
    UNSUPPORTED_VERSION = "unsupported_version"
    HELLO_REQUIRED = "hello_required"
    HELLO_TIMEOUT = "hello_timeout"
    INVALID_NAME = "invalid_name"
    UNEXPECTED_HELLO = "unexpected_hello"
    MALFORMED_FRAME = "malformed_frame"
    INVALID_MESSAGE = "invalid_message"
    FRAME_TOO_LARGE = "frame_too_large"
    RATE_LIMITED = "rate_limited"
    FLOODING = "flooding"
    UNKNOWN_TABLE = "unknown_table"
    BAD_INVITE = "bad_invite"
    INVALID_SETTINGS = "invalid_settings"
    INVALID_SEAT = "invalid_seat"
    SEAT_TAKEN = "seat_taken"
    TABLE_FULL = "table_full"
    TABLE_STARTED = "table_started"
    NOT_SEATED = "not_seated"
    NOT_AT_TABLE = "not_at_table"
    NO_HAND_IN_PLAY = "no_hand_in_play"
    ILLEGAL_ACTION = "illegal_action"
    CHAT_CLOSED = "chat_closed"
    UNKNOWN_PHRASE = "unknown_phrase"
    TABLE_BUSY = "table_busy"
    SHUTTING_DOWN = "shutting_down"
    INTERNAL_ERROR = "internal_error"
    UNKNOWN_TOURNAMENT = "unknown_tournament"
    REGISTRATION_CLOSED = "registration_closed"
    ALREADY_REGISTERED = "already_registered"
    NOT_REGISTERED = "not_registered"
    NOT_DIRECTOR = "not_director"
    ROUND_IN_PLAY = "round_in_play"
    NEEDS_MINOR = "needs_minor"
    DUPLICATE_IN_PLAY = "duplicate_in_play"
    TOURNAMENT_PAUSED = "tournament_paused"
    TIME_IN_PAST = "time_in_past"
    REPEATED_CREATE = "repeated_create"
    UNKNOWN_PARTNER_CODE = "unknown_partner_code"
    ENTRANT_COMPLETE = "entrant_complete"
    INVALID_TEXT = "invalid_text"
    NAME_REGISTERED = "name_registered"
    ACCOUNT_REQUIRED = "account_required"
    MISSING_SCOPE = "missing_scope"
    INVALID_TOKEN = "invalid_token"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    PLAYBANNED = "playbanned"
    MUTED = "muted"
    TOO_MANY_REPORTS = "too_many_reports"
    INVALID_REPORT = "invalid_report"
    BOT_ACCOUNT_REQUIRED = "bot_account_required"
    ARENA_DAILY_CAP = "arena_daily_cap"
    OPPONENT_UNAVAILABLE = "opponent_unavailable"
    RATED_UNAVAILABLE = "rated_unavailable"
    UNKNOWN = "unknown"
    """A code this SDK does not know (a newer server's)."""

    @classmethod
    def parse(cls, code: str) -> "ErrorCode":
        try:
            return cls(code)
        except ValueError:
            return cls.UNKNOWN


class Rule(str, enum.Enum):
    """The rules' stable codes an ``illegal_action`` names (docs/PROTOCOL.md section 8)."""

    NOT_YOUR_TURN = "not_your_turn"
    MUST_TAKE_FIRST = "must_take_first"
    ALREADY_TAKEN = "already_taken"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CARDS_NOT_IN_HAND = "cards_not_in_hand"
    UNKNOWN_MELD = "unknown_meld"
    OPPONENTS_MELD = "opponents_meld"
    DUPLICATE_COMBINATION = "duplicate_combination"
    WOULD_EMPTY_HAND = "would_empty_hand"
    NO_LEGAL_DISCARD_LEFT = "no_legal_discard_left"
    DISCARD_PICKED_UP_CARD = "discard_picked_up_card"
    CLOSE_WITHOUT_POZZETTO = "close_without_pozzetto"
    CLOSE_WITHOUT_BURRACO = "close_without_burraco"
    CLOSE_WITHOUT_BURRACO_PULITO = "close_without_burraco_pulito"
    CLOSE_WITH_WILD = "close_with_wild"
    CLOSE_AFTER_PILE_PICKUP = "close_after_pile_pickup"
    CLOSE_AFTER_MULTI_CARD_PICKUP = "close_after_multi_card_pickup"
    CLOSE_IN_FIRST_ROUND = "close_in_first_round"
    STALLO_MUST_DRAW = "stallo_must_draw"
    TALLONE_EXHAUSTED = "tallone_exhausted"
    HAND_OVER = "hand_over"
    MELD_TOO_FEW_CARDS = "meld_too_few_cards"
    NOT_A_MELD = "not_a_meld"
    COMBINATION_OF_WILDS = "combination_of_wilds"
    TOO_MANY_WILDS = "too_many_wilds"
    TOO_FEW_NATURALS = "too_few_naturals"
    COMBINATION_TOO_LONG = "combination_too_long"
    SEQUENCE_TOO_LONG = "sequence_too_long"
    TWO_NATURAL_ACES = "two_natural_aces"
    NOT_CONTIGUOUS = "not_contiguous"
    WRONG_CARD_FOR_MELD = "wrong_card_for_meld"
    BOUND_WILD_MOVED = "bound_wild_moved"
    WILD_POSITION_AMBIGUOUS = "wild_position_ambiguous"
    WILD_POSITION_INVALID = "wild_position_invalid"
    UNKNOWN = "unknown"
    """A rule this SDK does not know."""

    @classmethod
    def parse(cls, code: str) -> "Rule":
        try:
            return cls(code)
        except ValueError:
            return cls.UNKNOWN


class BurracoError(Exception):
    """Every error this SDK raises."""


class ServerError(BurracoError):
    """An ``error`` reply: the request was refused and changed nothing."""

    def __init__(self, msg: Mapping[str, Any]) -> None:
        self.raw_code: str = msg.get("code") or ""
        self.code = ErrorCode.parse(self.raw_code)
        self.message: str = msg.get("message") or ""
        self.raw_rule: Optional[str] = msg.get("rule")
        self.rule: Optional[Rule] = None if self.raw_rule is None else Rule.parse(self.raw_rule)
        self.id: Optional[int] = msg.get("id")
        rule = f" [{self.raw_rule}]" if self.raw_rule else ""
        super().__init__(f"{self.raw_code}{rule}: {self.message}")


class ConnectionLost(BurracoError):
    """The WebSocket closed before the reply came; resume to learn what happened."""

    def __init__(self, code: Optional[int] = None, reason: str = "") -> None:
        self.code = code
        self.reason = reason
        super().__init__(f"connection closed ({code} {reason})".strip())


class SessionTakenOver(ConnectionLost):
    """Closed with 4001: another connection of the same session took the seats. Do not resume
    (docs/PROTOCOL.md section 6): the two would take the session from each other for ever."""


class TokenRevoked(ConnectionLost):
    """Closed with 4003: the personal token this connection signed in with was revoked or
    expired (docs/ACCOUNTS.md). Do not reconnect with it."""


class TokenNotSupported(BurracoError):
    """A token was given but the server's protocol has no way to send it (protocol 1.3 has none;
    it comes with 1.4). Raised rather than playing anonymously under an account's name."""
