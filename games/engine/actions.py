"""The command vocabulary: every command a client, a bot or the server may send, in one table.

`ACTIONS` maps a type to its `ActionSpec`: what kind of command it is (a game command the
engine applies, a lobby command, the server's own system action, table talk, a control
message), its fields and their JSON types, who may send it, whether the writer first tries it
as an optimistic write, whether a bot at the table may play it, and what the server adds before
the engine sees it (the sender's seat, a shuffled deck).

Every layer that needs the vocabulary reads it here, so a command is added in one place:
games/live/protocol.py (which frames it parses, their fields), games/engine/transcript.py (the
transcript format's action types and fields), games/engine/rules.py (ACTION_TYPES),
games/services/commands.py (Command.is_game, is_lobby), the writer (its optimistic and
stand-in sets), games/history/replay.py (a log row back to an engine action) and the bots at the
table (which commands a bot's decision may name). It lives in the engine because the engine is
the one package every layer may import (see errors.py); it holds data only, stdlib only.

What a command does is not here: the engine's rules (rules.py), the lobby's checks
(games/services/lobby.py), talk (games/talk/). Nor is what the wire adds on top of a field's
type (the 8-character bound on a card id, plain text for a room name): that is the protocol's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Any, Final

from .json_values import is_int


@unique
class Kind(StrEnum):
    """Which door a command goes through."""

    # A seated player's command at the table, applied through the engine by the writer.
    GAME = "game"
    # Seats, house rules and the room itself (games/services/lobby.py).
    LOBBY = "lobby"
    # The server's own engine actions (a timer ran out); a client sending one is refused.
    SYSTEM = "system"
    # Table talk (games/talk/): acknowledged once, but never versioned: it changes no table.
    TALK = "talk"
    # `ping` and `sync`: no action_id, no version, answered at once.
    CONTROL = "control"
    # A request for the strong bot's advice (games/teaching/, issue #28): changes no table,
    # answered to the asking socket alone.
    TEACHING = "teaching"


@unique
class Sender(StrEnum):
    """Who may send a command (docs/protocol.md §4, the "who" columns)."""

    # A seated player; the engine then checks which seat (the dealer, the seat on turn).
    SEAT = "seat"
    # The room's owner (for a game command, seated: OWNER_NOT_SEATED).
    OWNER = "owner"
    # Any seated player, or only the owner when the room's `regame_by` is "owner" (RULES §11).
    REGAME_BY = "regame_by"
    # Anyone with the table open: a seated player or a spectator.
    ANYONE = "anyone"
    # The server alone (the reveal window and the turn timer, RULES §5, §12).
    SERVER = "server"


@unique
class FieldType(StrEnum):
    """The JSON type of a command's field (`accepts` checks it)."""

    SEAT = "seat"                  # an integer 0-3: a seat's index
    SEAT_OR_NULL = "seat_or_null"  # a seat, or null (none chosen)
    CARD = "card"                  # a card id: a string (an unknown id is UNKNOWN_CARD's)
    CARDS = "cards"                # a list of card ids
    SUIT = "suit"                  # a suit letter, or null (none named): a string or null
    DECK = "deck"                  # the 78 card ids in dealing order: a list of strings
    BOOL = "bool"                  # true or false (not null)
    ID = "id"                      # a row's id (a user, a match, a message): 1 ... 2**31 - 1
    TEAM = "team"                  # "A" or "B"
    LEVEL = "level"                # a bot's level: a string (an unknown one is the lobby's)
    OBJECT = "object"              # a JSON object (room options: the engine's Options check it)
    VISIBILITY = "visibility"      # "public" or "private"
    NAME = "name"                  # a room's name: a string
    TEXT = "text"                  # talk's text: a string (its length is talk's to refuse)
    PHRASE = "phrase"              # a quick phrase's key: a non-empty string


# The largest row id PostgreSQL's `integer` holds: a larger one names no row.
_MAX_ID = 2**31 - 1


def accepts(ftype: FieldType, value: object) -> bool:
    """Whether `value` has the JSON type `ftype` names. Both doors check this: the transcript
    format (TRANSCRIPT.md) and the websocket's parser, which adds its size bounds."""
    if ftype is FieldType.SEAT:
        return is_int(value) and 0 <= value <= 3
    if ftype is FieldType.SEAT_OR_NULL:
        return value is None or accepts(FieldType.SEAT, value)
    if ftype is FieldType.SUIT:
        return value is None or isinstance(value, str)
    if ftype in (FieldType.CARDS, FieldType.DECK):
        return isinstance(value, list) and all(isinstance(c, str) for c in value)
    if ftype is FieldType.BOOL:
        return isinstance(value, bool)
    if ftype is FieldType.ID:
        return is_int(value) and 0 < value <= _MAX_ID
    if ftype is FieldType.TEAM:
        return value in ("A", "B")
    if ftype is FieldType.VISIBILITY:
        return value in ("public", "private")
    if ftype is FieldType.OBJECT:
        return isinstance(value, dict)
    if ftype is FieldType.PHRASE:
        return isinstance(value, str) and value != ""
    # CARD, LEVEL, NAME, TEXT: any string.
    return isinstance(value, str)


@dataclass(frozen=True)
class Field:
    """One field a client sends with a command, checked in the order the spec lists them."""

    name: str
    type: FieldType
    required: bool = True


# The fields the server adds to a game command before the engine applies it: the sender's
# seat (a client never names its own seat) and a deck from the server's CSPRNG.
SEAT_FIELD: Final = Field("seat", FieldType.SEAT)
DECK_FIELD: Final = Field("deck", FieldType.DECK)


@dataclass(frozen=True)
class ActionSpec:
    """One command type of the table."""

    type: str
    kind: Kind
    sender: Sender
    # What a client sends (docs/protocol.md §4), in the order the parser checks them.
    fields: tuple[Field, ...] = ()
    # The engine's `apply` takes it, and a transcript may hold it (TRANSCRIPT.md).
    engine: bool = False
    # The engine action names the seat that sends it (`seat`, added by the server).
    seated: bool = False
    # The engine action carries a deck (`deck`), shuffled by the server, never by a client.
    deck: bool = False
    # The writer first tries it without the room's lock (docs/decisions.md, "Optimistic writes
    # for a player's move"): a move that most of the time writes only its deal and its log.
    optimistic: bool = False
    # A bot at the table may play it: for its own seat, or standing in for an away player
    # (docs/decisions.md, issue #15). A bot plays a seat; it never runs the room.
    stand_in: bool = False

    @property
    def acknowledged(self) -> bool:
        """Whether a frame of it carries an `action_id` (every command but control's)."""
        return self.kind is not Kind.CONTROL

    @property
    def versioned(self) -> bool:
        """Whether a frame of it carries an `expected_version`: the commands that change the
        table (game and lobby; talk and control change none)."""
        return self.kind in (Kind.GAME, Kind.LOBBY)

    @property
    def engine_fields(self) -> tuple[Field, ...]:
        """The fields of its engine action, as a transcript holds it: the seat and the deck
        the server adds, then the client's own fields."""
        added = ((SEAT_FIELD,) if self.seated else ()) + ((DECK_FIELD,) if self.deck else ())
        return added + self.fields


def _game(type_: str, sender: Sender, *fields: Field, engine: bool = True,
          seated: bool = False, deck: bool = False, optimistic: bool = False,
          stand_in: bool = False) -> ActionSpec:
    return ActionSpec(type_, Kind.GAME, sender, fields, engine=engine, seated=seated,
                      deck=deck, optimistic=optimistic, stand_in=stand_in)


def _move(type_: str, *fields: Field) -> ActionSpec:
    """A seat's move within a deal: optimistic, and a bot's to play."""
    return _game(type_, Sender.SEAT, *fields, seated=True, optimistic=True, stand_in=True)


def _of(kind: Kind, type_: str, sender: Sender, *fields: Field,
        engine: bool = False) -> ActionSpec:
    return ActionSpec(type_, kind, sender, fields, engine=engine)


_SPECS: tuple[ActionSpec, ...] = (
    # Engine actions, in the order of TRANSCRIPT.md's table (RULES.md §5-§12).
    _game("start_round", Sender.OWNER, deck=True),  # from the lobby: the owner's seat deals
    _move("deal_next_pass"),
    _of(Kind.SYSTEM, "end_reveal", Sender.SERVER, engine=True),
    _move("discard_scart", Field("cards", FieldType.CARDS)),
    _move("play_card", Field("card", FieldType.CARD),
          Field("call_buob", FieldType.BOOL, required=False),
          Field("buob_suit", FieldType.SUIT, required=False)),
    _move("call_buob", Field("suit", FieldType.SUIT, required=False)),
    _of(Kind.SYSTEM, "turn_timeout", Sender.SERVER, engine=True),
    # The next deal: when every seat is a bot's, a bot starts it (issue #15).
    _game("regame", Sender.REGAME_BY, deck=True, stand_in=True),
    _game("end_match", Sender.OWNER),
    # A seated person gives the match up: the writer's (the engine's `resign` rule), never a
    # bot's, never a stand-in's.
    _game("resign", Sender.SEAT, engine=False),
    _game("new_match", Sender.OWNER),
    # "Same four again": the writer's NEW_MATCH then START_ROUND in one version, so no engine
    # action of its own. It names the finished match it follows (two presses start one match).
    _game("rematch", Sender.REGAME_BY, Field("match", FieldType.ID), engine=False),
    # The lobby (games/services/lobby.py LOBBY_COMMANDS).
    _of(Kind.LOBBY, "take_seat", Sender.ANYONE, Field("team", FieldType.TEAM),
        Field("index", FieldType.SEAT_OR_NULL, required=False)),
    _of(Kind.LOBBY, "leave_seat", Sender.SEAT),
    _of(Kind.LOBBY, "move_player", Sender.OWNER, Field("player", FieldType.ID),
        Field("index", FieldType.SEAT)),
    _of(Kind.LOBBY, "kick", Sender.OWNER, Field("player", FieldType.ID)),
    _of(Kind.LOBBY, "transfer_owner", Sender.OWNER, Field("player", FieldType.ID)),
    _of(Kind.LOBBY, "set_options", Sender.OWNER,
        Field("options", FieldType.OBJECT, required=False),
        Field("visibility", FieldType.VISIBILITY, required=False),
        Field("allow_spectators", FieldType.BOOL, required=False),
        Field("name", FieldType.NAME, required=False)),
    _of(Kind.LOBBY, "close_room", Sender.OWNER),
    _of(Kind.LOBBY, "seat_bot", Sender.OWNER, Field("index", FieldType.SEAT),
        Field("level", FieldType.LEVEL)),
    _of(Kind.LOBBY, "remove_bot", Sender.OWNER, Field("index", FieldType.SEAT)),
    # Control messages.
    _of(Kind.CONTROL, "sync", Sender.ANYONE),
    _of(Kind.CONTROL, "ping", Sender.ANYONE),
    # A hint at a practice table (games/teaching/hints.py): the seat's best actions.
    _of(Kind.TEACHING, "hint", Sender.SEAT),
    # Table talk (games/live/talk.py, games/talk/). A seated player's talk reaches the table,
    # a spectator's the spectators. Exactly one of text and phrase: talk refuses both or
    # neither (games/talk/speech.py), the parser only their types.
    _of(Kind.TALK, "say", Sender.ANYONE, Field("text", FieldType.TEXT, required=False),
        Field("phrase", FieldType.PHRASE, required=False)),
    _of(Kind.TALK, "mute", Sender.ANYONE, Field("player", FieldType.ID),
        Field("muted", FieldType.BOOL)),
    # A report names its reason (games/models/talk.py ReportReason; an unknown one is talk's
    # to refuse, REPORT_REASON_UNKNOWN) and may add a note (issue #24 item 14).
    _of(Kind.TALK, "report", Sender.ANYONE, Field("message", FieldType.ID),
        Field("reason", FieldType.TEXT),
        Field("note", FieldType.TEXT, required=False)),
)

ACTIONS: Final[Mapping[str, ActionSpec]] = {spec.type: spec for spec in _SPECS}


def _types(kind: Kind) -> frozenset[str]:
    return frozenset(t for t, spec in ACTIONS.items() if spec.kind is kind)


# The table's reads that its readers share, computed once.
GAME_TYPES: Final = _types(Kind.GAME)
LOBBY_TYPES: Final = _types(Kind.LOBBY)
SYSTEM_TYPES: Final = _types(Kind.SYSTEM)
TALK_TYPES: Final = _types(Kind.TALK)
CONTROL_TYPES: Final = _types(Kind.CONTROL)
TEACHING_TYPES: Final = _types(Kind.TEACHING)
# What a client may send (the system's own actions are refused: SYSTEM_ACTION).
CLIENT_TYPES: Final = frozenset(ACTIONS) - SYSTEM_TYPES
# The engine's actions in the table's order (TRANSCRIPT.md).
ENGINE_TYPES: Final = tuple(t for t, spec in ACTIONS.items() if spec.engine)
OPTIMISTIC_TYPES: Final = frozenset(t for t, spec in ACTIONS.items() if spec.optimistic)
STAND_IN_TYPES: Final = frozenset(t for t, spec in ACTIONS.items() if spec.stand_in)


def command_fields(action: Mapping[str, Any]) -> dict[str, Any]:
    """The fields a client would send for an engine action (a bot's decision): its own fields
    as the table lists them, without the seat and deck the server adds."""
    spec = ACTIONS[action["type"]]
    return {f.name: action[f.name] for f in spec.fields if f.name in action}
