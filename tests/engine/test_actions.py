"""The action table (games/engine/actions.py): one vocabulary for every reader.

It holds every command of the protocol (docs/protocol.md §4) and every action of the transcript
format (TRANSCRIPT.md), with the fields, senders and kinds the protocol documents. Its field
schemas are what the websocket parser checks: documented frames parse, a wrong type is refused
with INVALID_FIELD and a missing required field with MISSING_FIELD, naming the field. The
optimistic and stand-in sets are those of docs/decisions.md, and every reader that used to keep
a set of its own reads the table.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.engine import ACTION_TYPES, SYSTEM_ACTIONS, rules
from games.engine.actions import (
    ACTIONS,
    CLIENT_TYPES,
    CONTROL_TYPES,
    DECK_FIELD,
    ENGINE_TYPES,
    GAME_TYPES,
    LOBBY_TYPES,
    OPTIMISTIC_TYPES,
    SEAT_FIELD,
    STAND_IN_TYPES,
    SYSTEM_TYPES,
    TALK_TYPES,
    TEACHING_TYPES,
    FieldType,
    Kind,
    Sender,
    accepts,
    command_fields,
)
from games.engine.cards import CARD_IDS
from games.live import protocol
from games.live.protocol import ProtocolError, parse

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _section_4() -> str:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    return text[text.index("## 4. Client messages"):text.index("## 5. Server messages")]


def _rows(block: str) -> dict[str, list[str]]:
    """type → the cells of its row, for every table row of `block` that names a type."""
    out = {}
    for line in block.splitlines():
        m = re.match(r"\| `(\w+)` \|(.*)\|\s*$", line)
        if m:
            out[m.group(1)] = [cell.strip() for cell in m.group(2).split(" | ")]
    return out


def _documented() -> dict[Kind, dict[str, list[str]]]:
    """The commands of docs/protocol.md §4, by the table they are documented in."""
    sec = _section_4()
    game = sec.index("**Game commands**")
    lobby = sec.index("**Lobby commands**")
    control = sec.index("**Control messages**")
    flood = sec.index("**Flood limits.**")
    talk = sec.index("### Table talk")
    hints = sec.index("### Hints")
    return {
        Kind.GAME: _rows(sec[game:lobby]),
        Kind.LOBBY: _rows(sec[lobby:control]),
        Kind.CONTROL: _rows(sec[control:flood]),
        Kind.TALK: _rows(sec[talk:hints]),
        Kind.TEACHING: _rows(sec[hints:]),
    }


# --- the table holds the vocabulary ---------------------------------------------------------

def test_every_documented_command_is_in_the_table_with_its_kind() -> None:
    documented = _documented()
    for kind, rows in documented.items():
        assert rows, kind
        for type_ in rows:
            assert ACTIONS[type_].kind is kind, type_
    in_docs = {t for rows in documented.values() for t in rows}
    # And nothing a client may send is undocumented.
    assert in_docs == CLIENT_TYPES


def test_the_system_actions_are_the_servers_own() -> None:
    # docs/protocol.md §4: "the system's own `end_reveal` and `turn_timeout` → SYSTEM_ACTION".
    assert SYSTEM_TYPES == {"end_reveal", "turn_timeout"} == SYSTEM_ACTIONS
    for type_ in SYSTEM_TYPES:
        spec = ACTIONS[type_]
        assert (spec.engine, spec.sender, spec.fields) == (True, Sender.SERVER, ())
    assert not {s.type for s in ACTIONS.values() if s.sender is Sender.SERVER} - SYSTEM_TYPES


def test_the_kind_sets_cover_the_table_once() -> None:
    sets = [GAME_TYPES, LOBBY_TYPES, SYSTEM_TYPES, TALK_TYPES, CONTROL_TYPES, TEACHING_TYPES]
    assert sum(map(len, sets)) == len(ACTIONS)
    assert frozenset().union(*sets) == set(ACTIONS)
    assert all(spec.type == type_ for type_, spec in ACTIONS.items())


def test_the_engine_actions_are_the_transcript_formats_and_the_engines() -> None:
    # TRANSCRIPT.md's table of action types, in its order, with their fields.
    transcript = {
        "start_round": ("deck",),
        "deal_next_pass": ("seat",),
        "end_reveal": (),
        "discard_scart": ("seat", "cards"),
        "play_card": ("seat", "card", "call_buob", "buob_suit"),
        "call_buob": ("seat", "suit"),
        "turn_timeout": (),
        "regame": ("deck",),
        "end_match": (),
        "new_match": (),
    }
    assert ENGINE_TYPES == tuple(transcript) == ACTION_TYPES
    assert set(rules._HANDLERS) == set(ENGINE_TYPES)
    for type_, names in transcript.items():
        assert tuple(f.name for f in ACTIONS[type_].engine_fields) == names, type_
    # Optional in the format: call_buob and buob_suit of play_card, suit of call_buob.
    optional = {(t, f.name) for t in ENGINE_TYPES for f in ACTIONS[t].engine_fields
                if not f.required}
    assert optional == {("play_card", "call_buob"), ("play_card", "buob_suit"),
                        ("call_buob", "suit")}
    # rematch is a game command but the writer's, not the engine's (NEW_MATCH + START_ROUND).
    # resign too: the writer's, through the engine's `resign` rule (no transcript action).
    assert set(ENGINE_TYPES) - SYSTEM_TYPES == GAME_TYPES - {"rematch", "resign"}


def test_the_server_adds_the_seat_and_the_deck_never_the_client() -> None:
    for spec in ACTIONS.values():
        names = {f.name for f in spec.fields}
        assert not names & {"seat", "deck"}, spec.type
        assert SEAT_FIELD in spec.engine_fields if spec.seated else True
        assert (DECK_FIELD in spec.engine_fields) == spec.deck
    assert {t for t, s in ACTIONS.items() if s.deck} == {"start_round", "regame"}
    assert {t for t, s in ACTIONS.items() if s.seated} == {
        "deal_next_pass", "discard_scart", "play_card", "call_buob"}


# --- who may send it (docs/protocol.md §4, the "who" columns) --------------------------------

def _sender_of(who: str) -> Sender:
    if "or only the owner with `regame_by" in who:
        return Sender.REGAME_BY
    if who.startswith("owner"):
        return Sender.OWNER
    if who == "any signed-in user":
        return Sender.ANYONE
    # "the dealer", "the seat on turn", "any seat (...)", "a seated player": a seat's.
    assert who.startswith(("the dealer", "the seat on turn", "any seat", "a seated player")), who
    return Sender.SEAT


def test_the_senders_are_the_documented_ones() -> None:
    documented = _documented()
    for kind in (Kind.GAME, Kind.LOBBY):
        for type_, cells in documented[kind].items():
            assert ACTIONS[type_].sender is _sender_of(cells[1]), type_
    # Control and talk: anyone with the table open, a spectator too (§4, "Table talk").
    for type_ in CONTROL_TYPES | TALK_TYPES:
        assert ACTIONS[type_].sender is Sender.ANYONE


# --- the field schemas are the protocol's -------------------------------------------------------

def test_the_documented_fields_are_the_tables() -> None:
    for rows in _documented().values():
        for type_, cells in rows.items():
            cell = cells[0]
            names = re.findall(r"`(\w+)`(?::| \()", cell)
            spec = ACTIONS[type_]
            assert tuple(f.name for f in spec.fields) == tuple(names), type_
            for f in spec.fields:
                # "any of", "exactly one of" (checked by talk) and "(optional": not required.
                after = cell[cell.index(f"`{f.name}`"):]
                nxt = re.search(r"`\w+`(?::| \()", after[len(f.name) + 2:])
                own = after[:len(f.name) + 2 + (nxt.start() if nxt else len(after))]
                optional = cell.startswith(("any of", "exactly one of")) or "optional" in own
                assert f.required is not optional, (type_, f.name)


def test_every_documented_example_frame_parses() -> None:
    sec = _section_4()
    block = sec[sec.index("Examples:"):sec.index("### Table talk")]
    frames = re.findall(r"^\{.*\}$", block, flags=re.MULTILINE)
    assert len(frames) >= 10
    for frame in frames:
        data = json.loads(frame)
        cmd = parse(frame)
        assert cmd.type == data["type"]
        assert cmd.fields == {k: v for k, v in data.items()
                              if k not in ("type", "action_id", "expected_version")}


# One value of each type that every field of it accepts, and values it refuses at the wire.
GOOD: dict[FieldType, Any] = {
    FieldType.SEAT: 2, FieldType.SEAT_OR_NULL: None, FieldType.CARD: "C1",
    FieldType.CARDS: ["C3", "C7"], FieldType.SUIT: "C", FieldType.BOOL: True, FieldType.ID: 7,
    FieldType.TEAM: "A", FieldType.LEVEL: "easy", FieldType.OBJECT: {"match_deals": 8},
    FieldType.VISIBILITY: "private", FieldType.NAME: "Friday table", FieldType.TEXT: "allegra",
    FieldType.PHRASE: "gg",
}
BAD: dict[FieldType, list[Any]] = {
    FieldType.SEAT: [4, -1, "2", True, None, 1.5],
    FieldType.SEAT_OR_NULL: [4, "0", False],
    FieldType.CARD: [7, None, "C1" * 5, ["C1"]],
    FieldType.CARDS: ["C1,C2", ["C1"] * 5, [1, 2], ["C1" * 5]],
    FieldType.SUIT: [3, "C" * 9, True, []],
    FieldType.BOOL: [None, 1, "true"],
    FieldType.ID: [0, -1, 2**31, "7", True, 1.5],
    FieldType.TEAM: ["C", "a", None, 0],
    FieldType.LEVEL: [3, "x" * 9, None],
    FieldType.OBJECT: [[1], "x", None],
    FieldType.VISIBILITY: ["secret", None],
    FieldType.NAME: ["n" * 61, 3, "a\u202eb", "a\x07b"],
    FieldType.TEXT: [3, None, ["hi"]],
    FieldType.PHRASE: ["", "x" * 41, 3],
}
CLIENT_SPECS = [ACTIONS[t] for t in sorted(CLIENT_TYPES)]


def _frame(type_: str, **fields: Any) -> str:
    spec = ACTIONS[type_]
    data: dict[str, Any] = {"type": type_}
    if spec.acknowledged:
        data["action_id"] = "a-1"
    if spec.versioned:
        data["expected_version"] = 3
    for f in spec.fields:
        if f.required:
            data[f.name] = GOOD[f.type]
    return json.dumps({**data, **fields})


def _refusal(frame: str) -> tuple[str, str | None, str]:
    with pytest.raises(ProtocolError) as info:
        parse(frame)
    return info.value.code, info.value.action_id, info.value.detail


def test_every_field_type_has_good_and_bad_values() -> None:
    assert set(GOOD) == set(BAD) >= {f.type for s in ACTIONS.values() for f in s.fields}


@pytest.mark.parametrize("spec", CLIENT_SPECS, ids=lambda s: s.type)
def test_the_table_accepts_each_field_of_a_command(spec: Any) -> None:
    cmd = parse(_frame(spec.type, **{f.name: GOOD[f.type] for f in spec.fields}))
    assert cmd.type == spec.type
    assert cmd.fields == {f.name: GOOD[f.type] for f in spec.fields}
    assert cmd.action_id == ("a-1" if spec.acknowledged else None)
    assert cmd.expected_version == (3 if spec.versioned else None)
    # Only the required fields: the optional ones are left out of the command.
    assert set(parse(_frame(spec.type)).fields) == {f.name for f in spec.fields if f.required}


@pytest.mark.parametrize("spec", CLIENT_SPECS, ids=lambda s: s.type)
def test_the_table_refuses_a_wrong_type_or_a_missing_field(spec: Any) -> None:
    for f in spec.fields:
        for value in BAD[f.type]:
            assert _refusal(_frame(spec.type, **{f.name: value})) == (
                "INVALID_FIELD", "a-1", f.name), (f.name, value)
            assert not accepts(f.type, value) or f.type in (
                FieldType.CARD, FieldType.CARDS, FieldType.SUIT, FieldType.LEVEL,
                FieldType.NAME, FieldType.PHRASE), (f.type, value)  # the wire's size bounds
        if f.required:
            data = json.loads(_frame(spec.type))
            del data[f.name]
            assert _refusal(json.dumps(data)) == ("MISSING_FIELD", "a-1", f.name)


@pytest.mark.parametrize("spec", CLIENT_SPECS, ids=lambda s: s.type)
def test_action_id_and_expected_version_as_the_table_says(spec: Any) -> None:
    data = json.loads(_frame(spec.type))
    no_id = {k: v for k, v in data.items() if k != "action_id"}
    no_version = {k: v for k, v in data.items() if k != "expected_version"}
    if spec.acknowledged:
        assert _refusal(json.dumps(no_id)) == ("MISSING_FIELD", None, "action_id")
    else:
        parse(json.dumps(no_id))
    if spec.versioned:
        assert _refusal(json.dumps(no_version)) == ("MISSING_FIELD", "a-1", "expected_version")
    else:
        assert parse(json.dumps(no_version)).expected_version is None


def test_unknown_and_system_types_keep_their_codes() -> None:
    assert _refusal('{"type": "steal_cards", "action_id": "a-1"}') == (
        "UNKNOWN_TYPE", "a-1", "")
    for type_ in sorted(SYSTEM_TYPES):
        assert _refusal(json.dumps({"type": type_, "action_id": "a-1"}))[:2] == (
            "SYSTEM_ACTION", "a-1")


def test_the_protocol_reexports_the_tables_sets() -> None:
    assert protocol.GAME_TYPES is GAME_TYPES and protocol.LOBBY_TYPES is LOBBY_TYPES
    assert {"say", "mute", "report"} == protocol.TALK_TYPES
    assert {"sync", "ping"} == protocol.CONTROL_TYPES


# --- the writer's sets and the bots ---------------------------------------------------------------

def test_the_optimistic_moves_are_the_decisions() -> None:
    # docs/decisions.md, "Optimistic writes for a player's move (PostgreSQL)": "A move
    # (`play_card`, `call_buob`, `deal_next_pass`, `discard_scart`) is now first tried without
    # the lock".
    assert {"play_card", "call_buob", "deal_next_pass", "discard_scart"} == OPTIMISTIC_TYPES
    assert all(ACTIONS[t].kind is Kind.GAME and ACTIONS[t].seated for t in OPTIMISTIC_TYPES)


def test_a_stand_in_plays_the_seat_never_the_room() -> None:
    # docs/decisions.md (issue #15): a stand-in plays the away player's seat; the bots start
    # the next deal (REGAME) when all four seats are bot-played; nothing of the owner's.
    assert {"deal_next_pass", "discard_scart", "play_card", "call_buob",
                              "regame"} == STAND_IN_TYPES
    for type_ in STAND_IN_TYPES:
        spec = ACTIONS[type_]
        assert spec.engine and spec.kind is Kind.GAME
        assert spec.sender in (Sender.SEAT, Sender.REGAME_BY)
    assert OPTIMISTIC_TYPES <= STAND_IN_TYPES


def test_the_readers_read_the_table() -> None:
    from games.services import commands, writer

    assert writer._OPTIMISTIC_TYPES is OPTIMISTIC_TYPES
    assert writer._STAND_IN_TYPES is STAND_IN_TYPES
    assert commands.Command("regame", "a", 1).is_game
    assert commands.Command("rematch", "a", 1, {"match": 1}).is_game
    assert commands.Command("kick", "a", 1, {"player": 2}).is_lobby
    assert not commands.Command("say", "a", None, {"text": "hi"}).is_game


def test_lobby_dispatch_covers_the_lobby_commands() -> None:
    from games.services.lobby import LOBBY_COMMANDS

    assert set(LOBBY_COMMANDS) == LOBBY_TYPES


def test_a_bots_action_becomes_the_command_a_client_sends() -> None:
    deck = list(CARD_IDS)
    assert command_fields({"type": "regame", "seat": 2, "deck": deck}) == {}
    assert command_fields({"type": "play_card", "seat": 1, "card": "CK", "call_buob": True,
                           "buob_suit": "C"}) == {"card": "CK", "call_buob": True,
                                                  "buob_suit": "C"}
    assert command_fields({"type": "discard_scart", "seat": 0, "cards": ["C1", "C2"]}) == {
        "cards": ["C1", "C2"]}


def test_a_bots_decision_is_legal_only_if_the_table_lets_a_bot_play_it() -> None:
    from games.services.bots.turns import _is_legal

    v = {"seat": 0, "actions": {"deal": True, "new_match": True}}
    assert _is_legal({"type": "deal_next_pass", "seat": 0}, v)
    assert not _is_legal({"type": "new_match", "seat": 0}, v)  # the owner's, never a bot's
    assert not _is_legal({"type": ["deal_next_pass"], "seat": 0}, v)  # not a type at all
