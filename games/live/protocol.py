"""The websocket protocol (docs/protocol.md): client JSON ⇄ typed commands, limits, codes.

Parsing is strict and total: any frame either becomes a `Command` or raises `ProtocolError`
with a stable code, and nothing else happens. Engine rules are not checked here.
"""

from __future__ import annotations

import json
from typing import Any

from accounts.validators import is_showable
from games.engine.actions import (
    ACTIONS,
    CLIENT_TYPES,
    CONTROL_TYPES,
    GAME_TYPES,
    LOBBY_TYPES,
    SYSTEM_TYPES,
    TALK_TYPES,
    TEACHING_TYPES,
    FieldType,
    Kind,
    accepts,
)
from games.engine.errors import ErrorCode, TroccasError
from games.engine.json_depth import MAX_DEPTH, too_deep
from games.engine.json_values import is_int
from games.services.commands import Command

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
# A frame nested deeper than MAX_DEPTH is refused before parsing (games/engine/json_depth.py,
# shared with the HTTP API).

# The vocabulary is the engine's action table (games/engine/actions.py): every type, its kind,
# its fields and their JSON types; its type sets are re-exported here for the live layer. A
# frame becomes the writer's own Command, so the writer knows nothing of frames. Talk
# (games/talk/) carries an action_id (acked once) but no expected_version, since talk never
# changes the table; the message records the version it was said at.
__all__ = [
    "CLIENT_TYPES", "CONTROL_TYPES", "GAME_TYPES", "LOBBY_TYPES", "MAX_ACTION_ID", "MAX_DEPTH",
    "MAX_FRAME_BYTES", "PROTOCOL_VERSION", "SYSTEM_TYPES", "TALK_TYPES", "TEACHING_TYPES",
    "ProtocolError",
    "client_protocol", "parse", "too_deep",
]


class ProtocolError(TroccasError):
    """A frame that cannot be a command. `code` is stable (an ErrorCode); `action_id` echoes
    the frame's; `detail` names the offending field, if any."""

    def __init__(self, code: ErrorCode | str, action_id: str | None = None,
                 detail: str = "") -> None:
        super().__init__(code)
        self.action_id = action_id
        self.detail = detail


# The wire's bounds on top of a field's type (docs/protocol.md §4): strings that name a card,
# a suit or a bot level are at most 8 characters and a scart at most 4 cards, so a frame's
# fields never carry more than the table needs; a room's name is plain text of at most 60.
_SHORT = 8


def _short(value: Any) -> bool:
    return len(value) <= _SHORT


def _within_bounds(ftype: FieldType, value: Any) -> bool:
    if ftype in (FieldType.CARD, FieldType.LEVEL):
        return _short(value)
    if ftype is FieldType.SUIT:
        return value is None or _short(value)
    if ftype is FieldType.CARDS:
        return len(value) <= 4 and all(map(_short, value))
    if ftype is FieldType.PHRASE:
        return len(value) <= 40
    if ftype is FieldType.NAME:
        return len(value) <= 60 and is_showable(value)
    # TEXT: any string the frame limit allows, its length is talk's to refuse (TALK_TOO_LONG).
    return True


def _valid(ftype: FieldType, value: Any) -> bool:
    return accepts(ftype, value) and _within_bounds(ftype, value)


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
    spec = ACTIONS.get(kind)
    if spec is None:
        raise ProtocolError("UNKNOWN_TYPE", action_id)
    if spec.kind is Kind.SYSTEM:
        raise ProtocolError("SYSTEM_ACTION", action_id)
    expected: int | None = None
    if spec.acknowledged:
        if "action_id" not in data:
            raise ProtocolError("MISSING_FIELD", None, "action_id")
        if action_id is None:
            raise ProtocolError("INVALID_FIELD", None, "action_id")
    if spec.versioned:
        if "expected_version" not in data:
            raise ProtocolError("MISSING_FIELD", action_id, "expected_version")
        expected = data["expected_version"]
        if not is_int(expected) or expected < 0:
            raise ProtocolError("INVALID_FIELD", action_id, "expected_version")
    fields: dict[str, Any] = {}
    for field in spec.fields:
        name = field.name
        if name not in data:
            if field.required:
                raise ProtocolError("MISSING_FIELD", action_id, name)
            continue
        if not _valid(field.type, data[name]):
            raise ProtocolError("INVALID_FIELD", action_id, name)
        fields[name] = data[name]
    return Command(kind, action_id, expected, fields)
