"""The websocket protocol (docs/protocol.md): client JSON ⇄ typed commands, limits, codes.

Parsing is strict and total: any frame either becomes a `Command` or raises `ProtocolError`
with a stable code, and nothing else happens. Engine rules are not checked here.
"""

from __future__ import annotations

import json
import re
from typing import Any

from accounts.validators import is_plain_text
from games.engine.errors import ErrorCode, TroccasError
from games.engine.json_values import is_int
from games.services.commands import GAME_TYPES, LOBBY_TYPES, Command

# The protocol version this server speaks (docs/protocol.md §3): a client names it in the
# socket's query string, `?protocol=2`. Version 2 (issue #16) sends one `state` frame per change
# carrying its events; a client without it (version 1 expected an `event` frame first) is told
# PROTOCOL_OUTDATED and closed, rather than left waiting for frames that never come.
PROTOCOL_VERSION = 2


def client_protocol(query_string: bytes | str) -> int | None:
    """The protocol version a socket's query string names (`protocol=N`), or None."""
    text = query_string.decode("latin-1") if isinstance(query_string, bytes) else query_string
    for part in text.split("&"):
        name, _, value = part.partition("=")
        if name == "protocol" and value.isdigit() and len(value) <= 4:
            return int(value)
    return None


# Frames larger than this are refused before parsing (a hand of 21 card ids is < 300 bytes).
MAX_FRAME_BYTES = 4096
MAX_ACTION_ID = 64
# Deepest nesting of arrays and objects a frame may have. The deepest command is 3 levels
# (set_options → options → bock_triggers); unknown keys are ignored but must stay this shallow.
# Without a bound, 2 KB of "[[[[…" made the decoder recurse until RecursionError.
MAX_DEPTH = 16
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")

# The game and lobby types are the writer's (games/services/commands.py); a frame becomes the
# writer's own Command, so the writer knows nothing of frames.
CONTROL_TYPES = frozenset({"sync", "ping"})
SYSTEM_TYPES = frozenset({"end_reveal", "turn_timeout"})
# Table talk (games/talk/): an action_id (acked once) but no expected_version, since talk
# never changes the table; the message records the version it was said at.
TALK_TYPES = frozenset({"say", "mute", "report"})
ALL_TYPES = GAME_TYPES | LOBBY_TYPES | CONTROL_TYPES | TALK_TYPES

# type → {field: (required, kind)}
_FIELDS: dict[str, dict[str, tuple[bool, str]]] = {
    "start_round": {},
    "deal_next_pass": {},
    "discard_scart": {"cards": (True, "cards")},
    "play_card": {"card": (True, "str"), "call_buob": (False, "bool"),
                  "buob_suit": (False, "str_or_null")},
    "call_buob": {"suit": (False, "str_or_null")},
    "regame": {},
    "end_match": {},
    "new_match": {},
    # "Same four again": the finished match it follows (two presses start one match).
    "rematch": {"match": (True, "int")},
    "take_seat": {"team": (True, "team"), "index": (False, "seat_or_null")},
    "leave_seat": {},
    "move_player": {"player": (True, "int"), "index": (True, "seat")},
    "kick": {"player": (True, "int")},
    "transfer_owner": {"player": (True, "int")},
    "set_options": {"options": (False, "object"), "visibility": (False, "visibility"),
                    "allow_spectators": (False, "bool"), "name": (False, "name")},
    "close_room": {},
    "seat_bot": {"index": (True, "seat"), "level": (True, "str")},
    "remove_bot": {"index": (True, "seat")},
    "sync": {},
    "ping": {},
    # Exactly one of text and phrase (games/talk/speech.py refuses both or neither).
    "say": {"text": (False, "talk_text"), "phrase": (False, "phrase")},
    "mute": {"player": (True, "int"), "muted": (True, "bool")},
    "report": {"message": (True, "int")},
}


class ProtocolError(TroccasError):
    """A frame that cannot be a command. `code` is stable (an ErrorCode); `action_id` echoes
    the frame's; `detail` names the offending field, if any."""

    def __init__(self, code: ErrorCode | str, action_id: str | None = None,
                 detail: str = "") -> None:
        super().__init__(code)
        self.action_id = action_id
        self.detail = detail


def _valid(kind: str, value: Any) -> bool:
    if kind == "str":
        return isinstance(value, str) and len(value) <= 8
    if kind == "str_or_null":
        return value is None or (isinstance(value, str) and len(value) <= 8)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return is_int(value) and 0 < value < 2**31
    if kind == "seat":
        return is_int(value) and 0 <= value <= 3
    if kind == "seat_or_null":
        return value is None or (is_int(value) and 0 <= value <= 3)
    if kind == "team":
        return value in ("A", "B")
    if kind == "cards":
        return (isinstance(value, list) and len(value) <= 4
                and all(isinstance(c, str) and len(c) <= 8 for c in value))
    if kind == "object":
        return isinstance(value, dict)
    if kind == "visibility":
        return value in ("public", "private")
    if kind == "talk_text":
        # Any string the frame limit allows: its length is talk's to refuse (TALK_TOO_LONG).
        return isinstance(value, str)
    if kind == "phrase":
        return isinstance(value, str) and 0 < len(value) <= 40
    if kind == "name":
        return isinstance(value, str) and len(value) <= 60 and is_plain_text(value)
    raise AssertionError(kind)  # pragma: no cover


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether `text` nests arrays and objects deeper than `limit`, brackets inside strings
    not counted. Cheap for real frames: a few brackets are never too deep, and only a frame
    with more than `limit` of them is scanned (at most MAX_FRAME_BYTES)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def parse(frame: str | bytes | None) -> Command:
    """Turn one websocket text frame into a Command, or raise ProtocolError."""
    if frame is None:
        raise ProtocolError("MALFORMED_MESSAGE")
    size = len(frame.encode("utf-8") if isinstance(frame, str) else frame)
    if size > MAX_FRAME_BYTES:
        raise ProtocolError("MESSAGE_TOO_LARGE")
    try:
        # A binary frame is decoded as json.loads would (UTF-8, or UTF-16/32 by its BOM).
        text = (frame if isinstance(frame, str)
                else frame.decode(json.detect_encoding(frame), "surrogatepass"))
    except UnicodeDecodeError:
        raise ProtocolError("MALFORMED_MESSAGE") from None
    if too_deep(text):
        raise ProtocolError("MALFORMED_MESSAGE")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("MALFORMED_MESSAGE") from None
    if not isinstance(data, dict):
        raise ProtocolError("MALFORMED_MESSAGE")
    raw_id = data.get("action_id")
    action_id = raw_id if isinstance(raw_id, str) and 0 < len(raw_id) <= MAX_ACTION_ID else None
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("MISSING_FIELD", action_id, "type")
    if kind in SYSTEM_TYPES:
        raise ProtocolError("SYSTEM_ACTION", action_id)
    if kind not in ALL_TYPES:
        raise ProtocolError("UNKNOWN_TYPE", action_id)
    expected: int | None = None
    if kind not in CONTROL_TYPES:
        if "action_id" not in data:
            raise ProtocolError("MISSING_FIELD", None, "action_id")
        if action_id is None:
            raise ProtocolError("INVALID_FIELD", None, "action_id")
    if kind not in CONTROL_TYPES and kind not in TALK_TYPES:
        if "expected_version" not in data:
            raise ProtocolError("MISSING_FIELD", action_id, "expected_version")
        expected = data["expected_version"]
        if not is_int(expected) or expected < 0:
            raise ProtocolError("INVALID_FIELD", action_id, "expected_version")
    fields: dict[str, Any] = {}
    for name, (required, fkind) in _FIELDS[kind].items():
        if name not in data:
            if required:
                raise ProtocolError("MISSING_FIELD", action_id, name)
            continue
        if not _valid(fkind, data[name]):
            raise ProtocolError("INVALID_FIELD", action_id, name)
        fields[name] = data[name]
    return Command(kind, action_id, expected, fields)
