"""The site's one error type and every code it can send a client (ARCHITECTURE.md §4).

Rejections carry a stable code (RULES.md §12); sentences are the web layer's business
(games/text/errors.py turns a code into the player's language at the edge).

Why the codes of *every* layer live here, in the engine package: the engine may import nothing
outside games/engine/ (the import contracts in pyproject.toml, tests/engine/test_engine_purity),
while the services, the protocol, the consumer and the API may all import the engine. So this
module is the only one every layer can share; it stays stdlib-only and knows no sentence, only
codes and the HTTP status a code answers with when it is sent over HTTP.
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import Final


@unique
class ErrorCode(StrEnum):
    """Every code a client can receive, the engine's and the web layer's. A member is its own
    name as a string (`ErrorCode.NOT_DEALER == "NOT_DEALER"`), so JSON, logs and comparisons
    with plain strings are unchanged. Each one has a sentence in games/text/errors.py."""

    # Engine: rule rejections (RULES.md §6-§12; RULE_CODES below).
    WRONG_PHASE = "WRONG_PHASE"
    MATCH_OVER = "MATCH_OVER"
    NOT_DEALER = "NOT_DEALER"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    UNKNOWN_CARD = "UNKNOWN_CARD"
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    SCART_WRONG_COUNT = "SCART_WRONG_COUNT"
    SCART_DUPLICATE = "SCART_DUPLICATE"
    SCART_FORBIDDEN_CARD = "SCART_FORBIDDEN_CARD"
    MUST_FOLLOW_SUIT = "MUST_FOLLOW_SUIT"
    MUST_PLAY_TRUMP = "MUST_PLAY_TRUMP"
    BUOB_FORCED_JACK = "BUOB_FORCED_JACK"
    BUOB_TRICK_NOT_OPEN = "BUOB_TRICK_NOT_OPEN"
    BUOB_ALREADY_CALLED = "BUOB_ALREADY_CALLED"
    BUOB_NO_KING = "BUOB_NO_KING"
    BUOB_NOT_ALLOWED_CALLER = "BUOB_NOT_ALLOWED_CALLER"
    BUOB_KING_SUIT_ALREADY_LED = "BUOB_KING_SUIT_ALREADY_LED"
    BUOB_SUIT_NOT_CANDIDATE = "BUOB_SUIT_NOT_CANDIDATE"
    BUOB_NO_TARGET = "BUOB_NO_TARGET"
    INVALID_ACTION = "INVALID_ACTION"
    # Engine: room options outside RULES.md §14 (OptionsError).
    INVALID_OPTIONS = "INVALID_OPTIONS"
    # Services: permissions, seats and rooms (RULES.md §3, §12; ServiceError).
    NOT_ROOM_OWNER = "NOT_ROOM_OWNER"
    TEAMS_NOT_BALANCED = "TEAMS_NOT_BALANCED"
    OWNER_NOT_SEATED = "OWNER_NOT_SEATED"
    NOT_SEATED = "NOT_SEATED"
    BOT_CANNOT_RESIGN = "BOT_CANNOT_RESIGN"
    SEAT_TAKEN = "SEAT_TAKEN"
    TEAM_FULL = "TEAM_FULL"
    ALREADY_SEATED = "ALREADY_SEATED"
    MATCH_IN_PROGRESS = "MATCH_IN_PROGRESS"
    NOT_IN_ROOM = "NOT_IN_ROOM"
    CANNOT_TARGET_SELF = "CANNOT_TARGET_SELF"
    ROOM_CLOSED = "ROOM_CLOSED"
    ROOM_NOT_FOUND = "ROOM_NOT_FOUND"
    # Teaching (games/teaching/, issue #28): a hint where a result counts, or with no
    # decision of the player's to advise on.
    HINT_NOT_ALLOWED = "HINT_NOT_ALLOWED"
    NOTHING_TO_ADVISE = "NOTHING_TO_ADVISE"
    HINT_PENDING = "HINT_PENDING"
    SPECTATORS_NOT_ALLOWED = "SPECTATORS_NOT_ALLOWED"
    NOT_AUTHENTICATED = "NOT_AUTHENTICATED"
    STALE_VERSION = "STALE_VERSION"
    # Services: bots at the table (issue #15).
    BOT_LEVEL_UNKNOWN = "BOT_LEVEL_UNKNOWN"
    NO_BOT_IN_SEAT = "NO_BOT_IN_SEAT"
    NOT_STANDING_IN = "NOT_STANDING_IN"
    # An account's open rooms with a bot seated are capped (issue #25 item 1).
    BOT_TABLES_CAPPED = "BOT_TABLES_CAPPED"
    # Table talk (issue #17; games/talk/, TalkError).
    TALK_SILENT = "TALK_SILENT"
    TALK_PHRASES_ONLY = "TALK_PHRASES_ONLY"
    TALK_EMPTY = "TALK_EMPTY"
    TALK_TOO_LONG = "TALK_TOO_LONG"
    TALK_TOO_FAST = "TALK_TOO_FAST"
    TALK_BLOCKED_WORD = "TALK_BLOCKED_WORD"
    TALK_SUSPENDED = "TALK_SUSPENDED"
    UNKNOWN_PHRASE = "UNKNOWN_PHRASE"
    TALK_MESSAGE_NOT_FOUND = "TALK_MESSAGE_NOT_FOUND"
    # A character carrying a stack of combining marks (issue #25 item 10).
    TEXT_TOO_MANY_MARKS = "TEXT_TOO_MANY_MARKS"
    # A room rename during a match at a table that may not talk (issue #25 item 9).
    ROOM_NAME_FROZEN = "ROOM_NAME_FROZEN"
    # A report whose reason the list does not hold (issue #24 item 14).
    REPORT_REASON_UNKNOWN = "REPORT_REASON_UNKNOWN"
    # Websocket protocol (docs/protocol.md §4; ProtocolError) and the consumer.
    MALFORMED_MESSAGE = "MALFORMED_MESSAGE"
    MESSAGE_TOO_LARGE = "MESSAGE_TOO_LARGE"
    UNKNOWN_TYPE = "UNKNOWN_TYPE"
    MISSING_FIELD = "MISSING_FIELD"
    INVALID_FIELD = "INVALID_FIELD"
    SYSTEM_ACTION = "SYSTEM_ACTION"
    RATE_LIMITED = "RATE_LIMITED"
    TOO_MANY_SOCKETS = "TOO_MANY_SOCKETS"
    # A client of an older protocol version (docs/protocol.md §3, issue #16).
    PROTOCOL_OUTDATED = "PROTOCOL_OUTDATED"
    SERVER_ERROR = "SERVER_ERROR"
    # HTTP API (docs/protocol.md §2; ApiError) and the match history's JSON.
    INVALID_CREDENTIALS = "INVALID_CREDENTIALS"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    CSRF_FAILED = "CSRF_FAILED"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    NOT_FOUND = "NOT_FOUND"
    MATCH_NOT_FINISHED = "MATCH_NOT_FINISHED"
    # "Same four again" pressed for a match that another press has already followed up.
    NEW_MATCH_ALREADY_ON = "NEW_MATCH_ALREADY_ON"
    # Friends and invitations (issue #17; games/talk/).
    PLAYER_NOT_FOUND = "PLAYER_NOT_FOUND"
    ALREADY_FRIENDS = "ALREADY_FRIENDS"
    FRIEND_REQUEST_PENDING = "FRIEND_REQUEST_PENDING"
    NO_FRIEND_REQUEST = "NO_FRIEND_REQUEST"
    NOT_FRIENDS = "NOT_FRIENDS"
    PLAYER_BLOCKED = "PLAYER_BLOCKED"
    TOO_MANY_INVITATIONS = "TOO_MANY_INVITATIONS"
    BLOCKED_FROM_ROOM = "BLOCKED_FROM_ROOM"
    # Find a game (issue #24; games/services/matchmaking.py).
    QUEUE_ALREADY_WAITING = "QUEUE_ALREADY_WAITING"
    QUEUE_SEATED_IN_MATCH = "QUEUE_SEATED_IN_MATCH"
    QUEUE_NOT_WAITING = "QUEUE_NOT_WAITING"
    QUEUE_BOTS_NOT_YET = "QUEUE_BOTS_NOT_YET"
    # Rooms per account (issue #25 item 12; games/services/rooms.py open_room).
    TOO_MANY_OPEN_ROOMS = "TOO_MANY_OPEN_ROOMS"
    ROOM_CREATION_RATE_LIMITED = "ROOM_CREATION_RATE_LIMITED"
    # Trust, round two (issue #25): a mute storm, and a block reaching an open socket.
    TOO_MANY_MUTES = "TOO_MANY_MUTES"
    BLOCKED_BY_OWNER = "BLOCKED_BY_OWNER"
    # Clubs (issue #26 item 1; games/clubs/membership.py).
    CLUB_NOT_FOUND = "CLUB_NOT_FOUND"
    CLUB_NAME_TAKEN = "CLUB_NAME_TAKEN"
    TOO_MANY_CLUBS = "TOO_MANY_CLUBS"
    ALREADY_CLUB_MEMBER = "ALREADY_CLUB_MEMBER"
    NOT_CLUB_MEMBER = "NOT_CLUB_MEMBER"
    CLUB_BY_REQUEST = "CLUB_BY_REQUEST"
    CLUB_REQUEST_PENDING = "CLUB_REQUEST_PENDING"
    NO_CLUB_REQUEST = "NO_CLUB_REQUEST"
    NO_CLUB_INVITATION = "NO_CLUB_INVITATION"
    NOT_CLUB_DIRECTOR = "NOT_CLUB_DIRECTOR"
    NOT_CLUB_OWNER = "NOT_CLUB_OWNER"
    OWNER_MUST_HAND_OVER = "OWNER_MUST_HAND_OVER"
    CANNOT_REMOVE_OWNER = "CANNOT_REMOVE_OWNER"
    CLUB_TABLE_MEMBERS_ONLY = "CLUB_TABLE_MEMBERS_ONLY"
    # The director's desk (issue #26 item 6; games/clubs/desk.py).
    TOURNAMENT_TABLE_FINISHED = "TOURNAMENT_TABLE_FINISHED"
    TABLE_NOT_RUNNING = "TABLE_NOT_RUNNING"
    ROUND_ALREADY_STARTED = "ROUND_ALREADY_STARTED"
    ALREADY_SEATED_THERE = "ALREADY_SEATED_THERE"
    ENTRANT_WITHDRAWN = "ENTRANT_WITHDRAWN"
    REAL_TABLE_NO_ROOM = "REAL_TABLE_NO_ROOM"
    # Tournaments (issue #26 item 2; games/clubs/tournaments.py).
    TOURNAMENT_NOT_FOUND = "TOURNAMENT_NOT_FOUND"
    TOURNAMENT_NOT_DIRECTOR = "TOURNAMENT_NOT_DIRECTOR"
    TOURNAMENT_SCHEDULE_INVALID = "TOURNAMENT_SCHEDULE_INVALID"
    TOURNAMENT_STAGES_INVALID = "TOURNAMENT_STAGES_INVALID"
    DUPLICATE_NOT_AT_REAL_TABLES = "DUPLICATE_NOT_AT_REAL_TABLES"
    TOURNAMENT_REGISTRATION_CLOSED = "TOURNAMENT_REGISTRATION_CLOSED"
    TOURNAMENT_ALREADY_ENTERED = "TOURNAMENT_ALREADY_ENTERED"
    TOURNAMENT_PARTNER_NEEDED = "TOURNAMENT_PARTNER_NEEDED"
    TOURNAMENT_NOT_ENTERED = "TOURNAMENT_NOT_ENTERED"
    TOURNAMENT_CHECKIN_CLOSED = "TOURNAMENT_CHECKIN_CLOSED"
    TOURNAMENT_MEMBERS_ONLY = "TOURNAMENT_MEMBERS_ONLY"
    TOURNAMENT_OVER = "TOURNAMENT_OVER"
    # Tournament rounds (issue #26 item 5; games/clubs/rounds.py).
    TOURNAMENT_TABLE_LOCKED = "TOURNAMENT_TABLE_LOCKED"

    @property
    def http_status(self) -> int:
        """The HTTP status this code answers with (HTTP_STATUS; 400 if not listed)."""
        return HTTP_STATUS.get(self, TroccasError.status)


# The one table of HTTP statuses: the codes that do not answer 400 Bad Request when sent over
# HTTP (docs/protocol.md §2). A websocket carries the code alone; its close codes are the
# consumer's (games/live/socket_base.py CLOSE_CODES).
HTTP_STATUS: Final[dict[ErrorCode, int]] = {
    ErrorCode.NOT_AUTHENTICATED: 401,
    ErrorCode.INVALID_CREDENTIALS: 401,
    ErrorCode.CSRF_FAILED: 403,
    ErrorCode.SPECTATORS_NOT_ALLOWED: 403,
    ErrorCode.TALK_SILENT: 403,
    ErrorCode.TALK_SUSPENDED: 403,
    ErrorCode.TALK_MESSAGE_NOT_FOUND: 404,
    ErrorCode.TALK_TOO_FAST: 429,
    ErrorCode.MATCH_NOT_FINISHED: 403,
    ErrorCode.BLOCKED_FROM_ROOM: 403,
    ErrorCode.BOT_TABLES_CAPPED: 409,
    ErrorCode.PLAYER_NOT_FOUND: 404,
    ErrorCode.ROOM_NOT_FOUND: 404,
    ErrorCode.HINT_NOT_ALLOWED: 403,
    ErrorCode.NOTHING_TO_ADVISE: 409,
    ErrorCode.HINT_PENDING: 429,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.NEW_MATCH_ALREADY_ON: 409,
    ErrorCode.QUEUE_ALREADY_WAITING: 409,
    ErrorCode.QUEUE_SEATED_IN_MATCH: 409,
    ErrorCode.QUEUE_NOT_WAITING: 409,
    ErrorCode.QUEUE_BOTS_NOT_YET: 409,
    ErrorCode.TOO_MANY_OPEN_ROOMS: 409,
    ErrorCode.TOO_MANY_MUTES: 429,
    ErrorCode.BLOCKED_BY_OWNER: 403,
    ErrorCode.CLUB_NOT_FOUND: 404,
    ErrorCode.CLUB_NAME_TAKEN: 409,
    ErrorCode.TOO_MANY_CLUBS: 409,
    ErrorCode.ALREADY_CLUB_MEMBER: 409,
    ErrorCode.NOT_CLUB_MEMBER: 403,
    ErrorCode.CLUB_BY_REQUEST: 409,
    ErrorCode.CLUB_REQUEST_PENDING: 409,
    ErrorCode.NO_CLUB_REQUEST: 404,
    ErrorCode.NO_CLUB_INVITATION: 404,
    ErrorCode.NOT_CLUB_DIRECTOR: 403,
    ErrorCode.NOT_CLUB_OWNER: 403,
    ErrorCode.OWNER_MUST_HAND_OVER: 409,
    ErrorCode.CANNOT_REMOVE_OWNER: 403,
    ErrorCode.CLUB_TABLE_MEMBERS_ONLY: 403,
    ErrorCode.TOURNAMENT_TABLE_FINISHED: 409,
    ErrorCode.TABLE_NOT_RUNNING: 409,
    ErrorCode.ROUND_ALREADY_STARTED: 409,
    ErrorCode.ALREADY_SEATED_THERE: 409,
    ErrorCode.ENTRANT_WITHDRAWN: 409,
    ErrorCode.REAL_TABLE_NO_ROOM: 409,
    ErrorCode.TOURNAMENT_NOT_FOUND: 404,
    ErrorCode.TOURNAMENT_NOT_DIRECTOR: 403,
    ErrorCode.TOURNAMENT_REGISTRATION_CLOSED: 409,
    ErrorCode.TOURNAMENT_ALREADY_ENTERED: 409,
    ErrorCode.TOURNAMENT_NOT_ENTERED: 409,
    ErrorCode.TOURNAMENT_CHECKIN_CLOSED: 409,
    ErrorCode.TOURNAMENT_MEMBERS_ONLY: 403,
    ErrorCode.TOURNAMENT_OVER: 409,
    ErrorCode.MESSAGE_TOO_LARGE: 413,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.TOO_MANY_INVITATIONS: 429,
    ErrorCode.ROOM_CREATION_RATE_LIMITED: 429,
    ErrorCode.SERVER_ERROR: 500,
}


class TroccasError(Exception):
    """Base of every refusal the site reports to a client: a stable `code` and an HTTP `status`.

    `code` may be given as an ErrorCode or as the plain string of one; it is always stored as
    an ErrorCode. An unknown string raises ValueError at construction: a code no client can be
    told about is a programming error and must fail loudly (in tests first; tests/site/
    test_error_codes.py also scans the source for every code raised).

    `status`: the instance's own if given, else the code's (HTTP_STATUS), else the class
    default below. str(error) is the code unless `description` says more.
    """

    status: int = 400

    def __init__(self, code: ErrorCode | str, *, status: int | None = None,
                 description: str | None = None) -> None:
        # An ErrorCode is taken as it is: the enum's lookup by value costs more than the rest of
        # the construction, and the engine raises members on its hot paths (a rejected BUOB
        # call is an ordinary event of play).
        self.code: ErrorCode = code if isinstance(code, ErrorCode) else ErrorCode(code)
        super().__init__(self.code.value if description is None else description)
        if status is not None:
            self.status = status
        elif self.code in HTTP_STATUS:
            self.status = HTTP_STATUS[self.code]


class RuleError(TroccasError):
    """An action the rules reject. `code` is one of RULE_CODES; the state is left unchanged."""

    def __init__(self, code: ErrorCode | str) -> None:
        super().__init__(code)


class OptionsError(TroccasError, ValueError):
    """Room options outside RULES.md §14. `key` names the offending option; the code is always
    INVALID_OPTIONS (still a ValueError, as it always was)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(ErrorCode.INVALID_OPTIONS, description=f"{key}: {message}")
        self.key = key
        self.message = message


# Every code the engine's rules can raise (RULES.md §6-§12).
RULE_CODES: tuple[ErrorCode, ...] = (
    ErrorCode.WRONG_PHASE,
    ErrorCode.MATCH_OVER,
    ErrorCode.NOT_DEALER,
    ErrorCode.NOT_YOUR_TURN,
    ErrorCode.UNKNOWN_CARD,
    ErrorCode.CARD_NOT_IN_HAND,
    ErrorCode.SCART_WRONG_COUNT,
    ErrorCode.SCART_DUPLICATE,
    ErrorCode.SCART_FORBIDDEN_CARD,
    ErrorCode.MUST_FOLLOW_SUIT,
    ErrorCode.MUST_PLAY_TRUMP,
    ErrorCode.BUOB_FORCED_JACK,
    ErrorCode.BUOB_TRICK_NOT_OPEN,
    ErrorCode.BUOB_ALREADY_CALLED,
    ErrorCode.BUOB_NO_KING,
    ErrorCode.BUOB_NOT_ALLOWED_CALLER,
    ErrorCode.BUOB_KING_SUIT_ALREADY_LED,
    ErrorCode.BUOB_SUIT_NOT_CANDIDATE,
    ErrorCode.BUOB_NO_TARGET,
    ErrorCode.INVALID_ACTION,
)
