"""Who may do what at a table (issue #4 item 8; RULES §3, §12 "permissions are the web layer's").

The matrix sends every client message type (protocol.GAME_TYPES | LOBBY_TYPES) from every
persona that must not be able to do it, over a real websocket, at the point of the game where
the rightful player could: the refusal carries its stable code, a sentence, the echoed
action_id — and the table's version and action log do not move. Where a rightful actor exists
the same action is then accepted from them, so no row of the matrix passes vacuously.

Table: owner A/0 (deals first), anna B/1 (leads trick 1), benedetg A/2, curdin B/3. The
"player" persona is curdin: seated, not the owner, not the dealer, not on turn. The spectator
once held seat 1 and left it before the table filled; the outsider never sat down.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from games import services
from games.engine import legal_actions
from games.live import protocol
from games.models import Room
from games.text.errors import message_for
from tests import personas
from tests.support import tables
from tests.support.live import TableClient

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]

OPTIONS = {"match_deals": 0, "regame_by": "owner"}
UNSEATED = "unseated"  # the outsider and the spectator share every expectation

# type → (phase the table is brought to, code for an unseated user, code for the player,
#         who may do it instead: "owner" | "dealer" | "turn" | None)
MATRIX: dict[str, tuple[str, str, str | None, str | None]] = {
    "start_round": ("LOBBY", "NOT_SEATED", "NOT_ROOM_OWNER", "owner"),
    "deal_next_pass": ("DEALING", "NOT_SEATED", "NOT_DEALER", "dealer"),
    "discard_scart": ("SCART", "NOT_SEATED", "NOT_DEALER", "dealer"),
    "play_card": ("PLAY", "NOT_SEATED", "NOT_YOUR_TURN", "turn"),
    # Any seat may call BUOB (RULES §12): the player passes the role check and meets the
    # rule (no trick open yet); an unseated user never reaches the engine.
    "call_buob": ("PLAY", "NOT_SEATED", "BUOB_TRICK_NOT_OPEN", None),
    "regame": ("ROUND_OVER", "NOT_SEATED", "NOT_ROOM_OWNER", "owner"),  # regame_by=owner
    "end_match": ("ROUND_OVER", "NOT_SEATED", "NOT_ROOM_OWNER", "owner"),  # match_deals=0
    "new_match": ("ROUND_OVER", "NOT_SEATED", "NOT_ROOM_OWNER", None),
    # "Same four again" follows regame_by (owner here); its own cases are in
    # tests/services/test_commands_same_four.py.
    "rematch": ("ROUND_OVER", "NOT_SEATED", "NOT_ROOM_OWNER", None),
    # Any seated player may give the running match up (accepted: None): test_resign.py.
    "resign": ("PLAY", "NOT_SEATED", None, None),
    # Seats change only between matches, for everyone.
    "take_seat": ("DEALING", "MATCH_IN_PROGRESS", "MATCH_IN_PROGRESS", None),
    # In the lobby the player may leave (accepted: None); someone without a seat may not.
    "leave_seat": ("LOBBY", "NOT_SEATED", None, None),
    "move_player": ("LOBBY", "NOT_ROOM_OWNER", "NOT_ROOM_OWNER", "owner"),
    "kick": ("LOBBY", "NOT_ROOM_OWNER", "NOT_ROOM_OWNER", "owner"),
    "transfer_owner": ("LOBBY", "NOT_ROOM_OWNER", "NOT_ROOM_OWNER", "owner"),
    "set_options": ("LOBBY", "NOT_ROOM_OWNER", "NOT_ROOM_OWNER", "owner"),
    "close_room": ("LOBBY", "NOT_ROOM_OWNER", "NOT_ROOM_OWNER", "owner"),
    # The owner's own bot commands need a free seat or a bot's: tests/services/bots/.
    "seat_bot": ("LOBBY", "NOT_ROOM_OWNER", "NOT_ROOM_OWNER", None),
    "remove_bot": ("LOBBY", "NOT_ROOM_OWNER", "NOT_ROOM_OWNER", None),
}
assert set(MATRIX) == protocol.GAME_TYPES | protocol.LOBBY_TYPES


class Cast:
    """The personas (tests/personas.py) around one table."""

    def __init__(self, owner: Any, players: list[Any], spectator: Any, outsider: Any,
                 room: Room) -> None:
        self.owner, self.anna, self.benedetg, self.curdin = owner, *players
        self.spectator, self.outsider = spectator, outsider
        self.code = room.code
        self.by_seat = personas.by_seat(owner, players)


def _build(owner: Any, players: list[Any], spectator: Any, outsider: Any,
           options: dict[str, Any] | None = None, **room_kw: Any) -> Cast:
    room = services.create_room(owner, options or OPTIONS, **room_kw)
    # The spectator sat in seat 1 once and left before anna took it.
    tables.must(room.code, spectator, "take_seat", team=personas.ANNA.team)
    tables.must(room.code, spectator, "leave_seat")
    for user, persona in zip(players, personas.PLAYERS, strict=True):
        tables.must(room.code, user, "take_seat", team=persona.team)
    return Cast(owner, players, spectator, outsider, room)


@pytest.fixture
def cast(owner: Any, players: list[Any], spectator: Any, outsider: Any) -> Cast:
    return _build(owner, players, spectator, outsider)


def _fields(type_: str, c: Cast) -> dict[str, Any]:
    """A well-formed payload for each type (the refusal must come from the role, not shape)."""
    return {
        "discard_scart": {"cards": ["C1", "C2"]},
        "play_card": {"card": "C1"},
        "call_buob": {"suit": "C"},
        "take_seat": {"team": "A"},
        "move_player": {"player": c.benedetg.pk, "index": 0},
        "kick": {"player": c.benedetg.pk},
        "transfer_owner": {"player": c.benedetg.pk},
        "set_options": {"options": {"reveal_seconds": 10}},
        "seat_bot": {"index": 1, "level": "easy"},
        "remove_bot": {"index": 1},
        # Any match id: the role is refused before the match is looked at.
        "rematch": {"match": 1},
    }.get(type_, {})


def _rightful(type_: str, who: str, c: Cast) -> tuple[Any, dict[str, Any]]:
    st = tables.state(c.code)
    if who == "owner":
        return c.owner, _fields(type_, c)
    assert st is not None and st.deal is not None
    if who == "dealer":
        fields = _fields(type_, c)
        if type_ == "discard_scart":
            fields = {"cards": legal_actions(st, st.dealer)["scart_allowed"][:2]}
        return c.by_seat[st.dealer], fields
    turn = st.deal.turn
    assert turn is not None
    return c.by_seat[turn], {"card": legal_actions(st, turn)["legal_cards"][0]}


async def _reject(client: TableClient, code: str, type_: str, fields: dict[str, Any],
                  expected: str) -> dict[str, Any]:
    before = await sync_to_async(tables.fingerprint)(code)
    action_id = await client.send(type_, expected_version=before[0], **fields)
    reply = await tables.answer(client, action_id)
    assert reply["type"] == "error", reply
    assert reply["code"] == expected, reply
    assert isinstance(reply["message"], str) and reply["message"].strip()
    assert reply["action_id"] == action_id
    assert await sync_to_async(tables.fingerprint)(code) == before, "a refusal changed the table"
    return reply


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "spectator", "player"])
@pytest.mark.parametrize("type_", sorted(MATRIX))
async def test_authorization_matrix(cast: Cast, persona: str, type_: str) -> None:
    phase, unseated_code, player_code, rightful = MATRIX[type_]
    await sync_to_async(tables.advance)(cast.code, cast.by_seat, phase)
    fields = _fields(type_, cast)
    if persona == "anonymous":
        # No session cookie: refused at the door, before any frame is read.
        before = await sync_to_async(tables.fingerprint)(cast.code)
        tab = TableClient(None, cast.code, "anonymous")
        assert await tab.connect(user=None)
        error, close = await tables.refused(tab, hang_up=False)
        assert error["code"] == "NOT_AUTHENTICATED" and error["message"].strip()
        assert close == 4401
        # A frame sent anyway on the refused socket is not acted upon.
        assert tab.comm is not None
        await tab.send(type_, expected_version=before[0], **fields)
        assert await tab.comm.receive_nothing(timeout=0.5)
        assert await sync_to_async(tables.fingerprint)(cast.code) == before
        await tab.comm.disconnect()
        return
    user = {"outsider": cast.outsider, "spectator": cast.spectator,
            "player": cast.curdin}[persona]
    expected = player_code if persona == "player" else unseated_code
    tab = await tables.open_tab(user, cast.code, persona)
    if expected is None:
        # Allowed for this persona: accepted once, the version moves by one.
        v = await sync_to_async(tables.version)(cast.code)
        action_id = await tab.send(type_, expected_version=v, **fields)
        reply = await tables.answer(tab, action_id)
        assert reply["type"] == "ack" and reply["version"] == v + 1, reply
    else:
        await _reject(tab, cast.code, type_, fields, expected)
        if rightful is not None:
            # The same action from the player entitled to it goes through.
            who, good = await sync_to_async(_rightful)(type_, rightful, cast)
            out = await sync_to_async(tables.submit)(cast.code, who, type_, **good)
            assert out.ok, out
    await tab.close()


@pytest.mark.parametrize("type_", sorted(protocol.SYSTEM_TYPES))
async def test_system_actions_are_refused_from_clients(cast: Cast, type_: str) -> None:
    # In REVEAL (end_reveal's phase) and from the dealer, who is the likeliest to try.
    await sync_to_async(tables.advance)(cast.code, cast.by_seat, "REVEAL")
    tab = await tables.open_tab(cast.owner, cast.code, "owner")
    await _reject(tab, cast.code, type_, {}, "SYSTEM_ACTION")
    assert (await sync_to_async(tables.phase)(cast.code)) == "REVEAL"
    await tab.close()


@pytest.mark.parametrize("persona", ["outsider", "spectator"])
async def test_spectators_forbidden_during_a_match(owner: Any, players: list[Any],
                                                   spectator: Any, outsider: Any,
                                                   persona: str) -> None:
    c = await sync_to_async(_build)(owner, players, spectator, outsider,
                                    allow_spectators=False)
    user = outsider if persona == "outsider" else spectator
    # In the lobby anyone may look in (to take a seat).
    lobby_tab = await tables.open_tab(user, c.code, persona)
    await lobby_tab.close()
    await sync_to_async(tables.advance)(c.code, c.by_seat, "DEALING")
    before = await sync_to_async(tables.fingerprint)(c.code)
    tab = TableClient(user, c.code, persona)
    assert await tab.connect()
    error, close = await tables.refused(tab)
    assert error["code"] == "SPECTATORS_NOT_ALLOWED" and error["message"].strip()
    assert close == 4403
    # No state frame was sent before the refusal: nothing of the table leaked.
    assert [f["type"] for f in tab.frames] == ["error"]
    # A seated player still gets in.
    seated = await tables.open_tab(c.curdin, c.code, "curdin")
    assert seated.view is not None and seated.view["seat"] == 3
    await seated.close()
    assert await sync_to_async(tables.fingerprint)(c.code) == before


async def test_unknown_room_is_refused(owner: Any) -> None:
    tab = TableClient(owner, "zzzz9999", "owner")
    assert await tab.connect()
    error, close = await tables.refused(tab)
    assert error["code"] == "ROOM_NOT_FOUND" and error["message"].strip()
    assert close == 4404
    assert not await sync_to_async(Room.objects.filter(code="zzzz9999").exists)()


async def test_unknown_room_is_refused_to_anonymous_too() -> None:
    # As for a real room: an anonymous socket must not learn which codes exist
    # (tests/live/test_consumers_trust.py).
    tab = TableClient(None, "zzzz9998", "anonymous")
    assert await tab.connect(user=None)
    error, close = await tables.refused(tab)
    assert error["code"] == "NOT_AUTHENTICATED"
    assert close == 4401


async def test_error_sentence_in_the_players_language(owner: Any, make_user: Any,
                                                      spectator: Any, outsider: Any) -> None:
    anna = await sync_to_async(make_user)("anna", preferred_language="de")
    benedetg = await sync_to_async(make_user)("benedetg", preferred_language="en")
    curdin = await sync_to_async(make_user)("curdin", preferred_language="de")
    c = await sync_to_async(_build)(owner, [anna, benedetg, curdin], spectator, outsider)
    await sync_to_async(tables.advance)(c.code, c.by_seat, "PLAY")
    de_tab = await tables.open_tab(curdin, c.code, "curdin")
    en_tab = await tables.open_tab(benedetg, c.code, "benedetg")
    de = await _reject(de_tab, c.code, "play_card", {"card": "C1"}, "NOT_YOUR_TURN")
    en = await _reject(en_tab, c.code, "play_card", {"card": "C1"}, "NOT_YOUR_TURN")
    with translation.override("de"):
        german = message_for("NOT_YOUR_TURN")
    with translation.override("en"):
        english = message_for("NOT_YOUR_TURN")
    assert de["message"] == german
    assert en["message"] == english
    if german != english:
        assert de["message"] != en["message"]
    # else: the de catalog does not carry the error sentences yet (reported); the code and a
    # sentence are still there, which is what the client needs to show something.
    await de_tab.close()
    await en_tab.close()
