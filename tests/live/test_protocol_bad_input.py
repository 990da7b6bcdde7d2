"""Bad input and abuse get an error and change nothing (issue #4 item 7; docs/protocol.md).

Every frame below comes from anna, seated at B/1 and on turn in PLAY, so a well-formed version
of it would be acted upon: the refusal is the parser's (or the service's) doing, with a stable
code, and the table's version and action log stay where they were. The socket stays usable
afterwards. A socket that floods is throttled, then closed, without slowing another room.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games import services
from games.engine import CARD_IDS
from games.live import protocol
from tests import personas
from tests.support import tables

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]

V = "<version>"  # replaced by the table's current version when the frame is sent


def _frame(**data: Any) -> dict[str, Any]:
    return {"action_id": "bad-1", "expected_version": V, **data}


# name → (frame: raw text, or a dict encoded as JSON; code; is the action_id echoed?)
CASES: dict[str, tuple[Any, str, bool]] = {
    "not json": ("{type: play_card", "MALFORMED_MESSAGE", False),
    "truncated json": ('{"type": "ping"', "MALFORMED_MESSAGE", False),
    "empty frame": ("", "MALFORMED_MESSAGE", False),
    "json array": ('[{"type": "play_card", "card": "C1"}]', "MALFORMED_MESSAGE", False),
    "json number": ("42", "MALFORMED_MESSAGE", False),
    "json string": ('"play_card"', "MALFORMED_MESSAGE", False),
    "json null": ("null", "MALFORMED_MESSAGE", False),
    "unknown type": (_frame(type="steal_cards"), "UNKNOWN_TYPE", True),
    "type not a string": (_frame(type=["play_card"]), "MISSING_FIELD", True),
    "missing type": (_frame(card="C1"), "MISSING_FIELD", True),
    "missing action_id": ({"type": "play_card", "card": "C1", "expected_version": V},
                          "MISSING_FIELD", False),
    "action_id not a string": ({"type": "play_card", "card": "C1", "action_id": 17,
                                "expected_version": V}, "INVALID_FIELD", False),
    "action_id too long": ({"type": "play_card", "card": "C1", "action_id": "x" * 65,
                            "expected_version": V}, "INVALID_FIELD", False),
    "missing expected_version": ({"type": "play_card", "card": "C1", "action_id": "bad-1"},
                                 "MISSING_FIELD", True),
    "expected_version a string": (_frame(type="play_card", card="C1", expected_version="3"),
                                  "INVALID_FIELD", True),
    "expected_version negative": (_frame(type="play_card", card="C1", expected_version=-1),
                                  "INVALID_FIELD", True),
    "expected_version a bool": (_frame(type="play_card", card="C1", expected_version=True),
                                "INVALID_FIELD", True),
    "card as int": (_frame(type="play_card", card=7), "INVALID_FIELD", True),
    "card missing": (_frame(type="play_card"), "MISSING_FIELD", True),
    "card too long": (_frame(type="play_card", card="C1" * 10), "INVALID_FIELD", True),
    "cards not a list": (_frame(type="discard_scart", cards="C1,C2"), "INVALID_FIELD", True),
    "cards of ints": (_frame(type="discard_scart", cards=[1, 2]), "INVALID_FIELD", True),
    "cards too many": (_frame(type="discard_scart", cards=["C1"] * 30), "INVALID_FIELD", True),
    "call_buob as string": (_frame(type="play_card", card="C1", call_buob="yes"),
                            "INVALID_FIELD", True),
    "buob suit as int": (_frame(type="call_buob", suit=3), "INVALID_FIELD", True),
    "team C": (_frame(type="take_seat", team="C"), "INVALID_FIELD", True),
    "team missing": (_frame(type="take_seat"), "MISSING_FIELD", True),
    "index 7": (_frame(type="take_seat", team="A", index=7), "INVALID_FIELD", True),
    "index as string": (_frame(type="take_seat", team="A", index="0"), "INVALID_FIELD", True),
    "move to index 7": (_frame(type="move_player", player=1, index=7), "INVALID_FIELD", True),
    "player as string": (_frame(type="kick", player="anna"), "INVALID_FIELD", True),
    "player zero": (_frame(type="kick", player=0), "INVALID_FIELD", True),
    "options not an object": (_frame(type="set_options", options=[1]), "INVALID_FIELD", True),
    "visibility unknown": (_frame(type="set_options", visibility="secret"), "INVALID_FIELD",
                           True),
    "name too long": (_frame(type="set_options", name="n" * 61), "INVALID_FIELD", True),
    "system action": (_frame(type="turn_timeout"), "SYSTEM_ACTION", True),
    "too large": (_frame(type="play_card", card="C1", pad="x" * protocol.MAX_FRAME_BYTES),
                  "MESSAGE_TOO_LARGE", False),
    # Well-formed, refused by the rules: still nothing changes.
    "unknown card": (_frame(type="play_card", card="XX"), "UNKNOWN_CARD", True),
    "card not held": (_frame(type="play_card", card="<not held>"), "CARD_NOT_IN_HAND", True),
}


@pytest.fixture
def table(owner: Any, players: list[Any]) -> tuple[str, dict[int, Any]]:
    room = tables.seat_table(owner, players)
    by_seat = personas.by_seat(owner, players)
    tables.advance(room.code, by_seat, "PLAY")
    return room.code, by_seat


def _materialise(frame: Any, version: int, not_held: str) -> str:
    if isinstance(frame, str):
        return frame
    data = {k: (version if v == V else v) for k, v in frame.items()}
    if data.get("card") == "<not held>":
        data["card"] = not_held
    return json.dumps(data)


@pytest.mark.parametrize("case", sorted(CASES))
async def test_bad_frame_gets_its_code_and_changes_nothing(
        table: tuple[str, dict[int, Any]], case: str) -> None:
    code, by_seat = table
    frame, expected, echoed = CASES[case]
    anna = await tables.open_tab(by_seat[1], code, "anna")
    before = await sync_to_async(tables.fingerprint)(code)
    st = await sync_to_async(tables.state)(code)
    assert st is not None and st.deal is not None and st.deal.turn == 1
    not_held = next(c for c in CARD_IDS if c not in anna.view["hand"])
    text = _materialise(frame, before[0], not_held)
    if expected == "MESSAGE_TOO_LARGE":
        assert len(text.encode()) > protocol.MAX_FRAME_BYTES
    else:
        assert len(text.encode()) <= protocol.MAX_FRAME_BYTES
    assert anna.comm is not None
    # (The communicator refuses to send an empty text frame; a browser can.)
    await anna.comm.send_input({"type": "websocket.receive", "text": text})
    reply = await anna.wait_for(lambda m: m["type"] in ("error", "ack"), timeout=10)
    assert reply["type"] == "error", reply
    assert reply["code"] == expected
    assert reply["message"].strip()
    assert reply["action_id"] == ("bad-1" if echoed else None)
    assert await sync_to_async(tables.fingerprint)(code) == before
    # The socket is still served: a ping is answered, and a good move is accepted.
    await anna.send_raw(json.dumps({"type": "ping"}))
    await anna.wait_for(lambda m: m["type"] == "pong", timeout=10)
    action_id = await anna.send("play_card", expected_version=before[0],
                                card=anna.view["legal_cards"][0])
    assert (await tables.answer(anna, action_id))["type"] == "ack"
    await anna.close()


async def test_invalid_utf8_binary_frame(table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    anna = await tables.open_tab(by_seat[1], code, "anna")
    before = await sync_to_async(tables.fingerprint)(code)
    assert anna.comm is not None
    await anna.comm.send_to(bytes_data=b"\xff\xfe{\"type\":")
    reply = await anna.wait_for(lambda m: m["type"] == "error", timeout=10)
    assert reply["code"] == "MALFORMED_MESSAGE" and reply["action_id"] is None
    assert await sync_to_async(tables.fingerprint)(code) == before
    await anna.close()


async def test_seat_of_the_wrong_team_is_refused(owner: Any, players: list[Any]) -> None:
    # Seat parity is the team (RULES §3): team A asking for seat 1 is a wrong field value.
    room = await sync_to_async(services.create_room)(owner)
    tab = await tables.open_tab(players[0], room.code, "anna")
    before = await sync_to_async(tables.fingerprint)(room.code)
    action_id = await tab.send("take_seat", expected_version=before[0], team="A", index=1)
    reply = await tables.answer(tab, action_id)
    assert reply["type"] == "error" and reply["code"] == "INVALID_FIELD"
    assert await sync_to_async(tables.fingerprint)(room.code) == before
    await tab.close()


async def test_flooding_socket_is_throttled_then_closed_other_rooms_unaffected(
        owner: Any, players: list[Any], make_user: Any) -> None:
    flood_room = await sync_to_async(services.create_room)(owner)
    quiet_owner = await sync_to_async(make_user)("quiet")
    quiet_room = await sync_to_async(services.create_room)(quiet_owner)
    flooder = await tables.open_tab(players[0], flood_room.code, "flooder")
    bystander = await tables.open_tab(owner, flood_room.code, "bystander")
    quiet = await tables.open_tab(quiet_owner, quiet_room.code, "quiet")
    before = await sync_to_async(tables.fingerprint)(flood_room.code)
    assert flooder.comm is not None and quiet.comm is not None
    ping = json.dumps({"type": "ping"})
    for _ in range(200):
        await flooder.comm.send_to(text_data=ping)
    # Another room is answered while the flood is being dealt with.
    await quiet.send_raw(ping)
    await quiet.wait_for(lambda m: m["type"] == "pong", timeout=10)
    # The flooder: some pongs (the burst), then RATE_LIMITED, then the close with 4429.
    frames: list[dict[str, Any]] = []
    close_code = None
    while close_code is None:
        out = await flooder.comm.receive_output(timeout=10)
        if out["type"] == "websocket.close":
            close_code = out.get("code")
        else:
            frames.append(json.loads(out["text"]))
    assert close_code == 4429
    kinds = [f.get("code", f["type"]) for f in frames]
    assert "RATE_LIMITED" in kinds
    assert kinds.count("pong") < 200, "the flood was not throttled"
    first_limit = kinds.index("RATE_LIMITED")
    assert all(k == "pong" for k in kinds[:first_limit] if k != "presence")
    limited = next(f for f in frames if f.get("code") == "RATE_LIMITED")
    assert limited["message"].strip()
    # The closed socket is not served any more, even if frames keep coming.
    await flooder.comm.send_to(text_data=ping)
    assert await flooder.comm.receive_nothing(timeout=0.5)
    await flooder.comm.disconnect()
    # Nothing changed at the table, and its other sockets and the other room carry on.
    assert await sync_to_async(tables.fingerprint)(flood_room.code) == before
    await bystander.send_raw(ping)
    await bystander.wait_for(lambda m: m["type"] == "pong", timeout=10)
    action_id = await quiet.send("set_options", expected_version=0, name="Still here")
    assert (await tables.answer(quiet, action_id))["type"] == "ack"
    await asyncio.gather(bystander.close(), quiet.close())
