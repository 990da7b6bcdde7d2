"""games/live/consumers.py (RoomConsumer) and games/live/site_socket.py (SiteConsumer) over
real websockets (channels.testing): the handshake, a refused frame with its code, the frame
limits, and the flood control both sockets share (games/live/socket_base.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from games import services
from games.live import protocol
from games.live.flood import BURST
from games.live.site_socket import MAX_SITE_FRAME_BYTES
from games.live.socket_base import CLOSE_CODES
from games.text.errors import message_for
from tests.support import tables
from tests.talk.test_online import site_tab

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]


async def _closed_after_flood(comm: WebsocketCommunicator, frame: str
                              ) -> tuple[list[dict[str, Any]], int | None]:
    """Send a flood of `frame`; every frame received until the close, and its code."""
    for _ in range(int(BURST) * 5):
        await comm.send_to(text_data=frame)
    frames: list[dict[str, Any]] = []
    while True:
        out = await comm.receive_output(timeout=10)
        if out["type"] == "websocket.close":
            return frames, out.get("code")
        frames.append(json.loads(out["text"]))


async def test_connect_sends_the_view_of_the_users_seat(owner: Any, players: list[Any]
                                                        ) -> None:
    room = await sync_to_async(services.create_room)(owner)
    tab = await tables.open_tab(owner, room.code, "owner")
    assert tab.view is not None and tab.version >= 0
    await tab.close()


async def test_a_refused_frame_gets_its_code_and_the_socket_carries_on(
        owner: Any, players: list[Any]) -> None:
    room = await sync_to_async(services.create_room)(owner)
    tab = await tables.open_tab(owner, room.code, "owner")
    await tab.send_raw(json.dumps({"type": "steal_cards", "action_id": "x-1",
                                   "expected_version": tab.version}))
    error = await tab.wait_for(lambda m: m["type"] == "error")
    assert error["code"] == "UNKNOWN_TYPE" and error["action_id"] == "x-1"
    assert error["message"].strip()
    await tab.send_raw(json.dumps({"type": "ping"}))
    await tab.wait_for(lambda m: m["type"] == "pong")
    await tab.close()


@pytest.mark.parametrize(("frame", "code"), [
    ('{"type": "ping", "pad": "' + "x" * protocol.MAX_FRAME_BYTES + '"}', "MESSAGE_TOO_LARGE"),
    ('{"type": "ping", "deep": ' + "[" * (protocol.MAX_DEPTH + 1)
     + "]" * (protocol.MAX_DEPTH + 1) + "}", "MALFORMED_MESSAGE"),
    ("[" * 3000 + "]" * 3000, "MESSAGE_TOO_LARGE"),
    ("[" * 1000 + "]" * 1000, "MALFORMED_MESSAGE"),
])
async def test_too_large_or_too_deep_a_frame_is_refused_unread(
        owner: Any, players: list[Any], frame: str, code: str) -> None:
    room = await sync_to_async(services.create_room)(owner)
    tab = await tables.open_tab(owner, room.code, "owner")
    await tab.send_raw(frame)
    error = await tab.wait_for(lambda m: m["type"] == "error")
    assert error["code"] == code and error["action_id"] is None
    await tab.send_raw(json.dumps({"type": "ping"}))
    await tab.wait_for(lambda m: m["type"] == "pong")
    await tab.close()


async def test_a_flooding_table_socket_is_closed_with_4429(owner: Any, players: list[Any]
                                                          ) -> None:
    room = await sync_to_async(services.create_room)(owner)
    tab = await tables.open_tab(owner, room.code, "owner")
    assert tab.comm is not None
    frames, code = await _closed_after_flood(tab.comm, json.dumps({"type": "ping"}))
    assert code == CLOSE_CODES["RATE_LIMITED"] == 4429
    assert any(f.get("code") == "RATE_LIMITED" for f in frames)
    await tab.comm.disconnect()


async def test_a_flooding_site_socket_is_closed_with_4429(players: list[Any]) -> None:
    comm = await site_tab(players[0])
    frames, code = await _closed_after_flood(comm, json.dumps({"type": "ping"}))
    assert code == 4429
    kinds = [f.get("code", f["type"]) for f in frames]
    assert "RATE_LIMITED" in kinds and kinds.count("pong") < int(BURST) * 5
    await comm.disconnect()


async def test_the_site_socket_refuses_large_frames_and_ignores_deep_ones(
        players: list[Any]) -> None:
    """Issue #25 item 3: a frame over the site socket's 1 KiB is answered MESSAGE_TOO_LARGE
    (translated, as the table socket answers it); a nested or non-JSON one is ignored."""
    comm = await site_tab(players[0])
    assert json.loads(await comm.receive_from(timeout=10))["type"] == "notices"
    bare = len(json.dumps({"type": "ping", "pad": ""}))
    await comm.send_to(text_data=json.dumps(
        {"type": "ping", "pad": "x" * (MAX_SITE_FRAME_BYTES - bare + 1)}))
    error = json.loads(await comm.receive_from(timeout=10))
    assert error["type"] == "error" and error["code"] == "MESSAGE_TOO_LARGE"
    assert error["message"].strip() and error["action_id"] is None
    # Exactly the limit is a ping like any other.
    await comm.send_to(text_data=json.dumps(
        {"type": "ping", "pad": "x" * (MAX_SITE_FRAME_BYTES - bare)}))
    assert json.loads(await comm.receive_from(timeout=10)) == {"type": "pong"}
    for frame in ("[" * 400 + "]" * 400, "not json", '{"type": "steal"}'):
        await comm.send_to(text_data=frame)
    assert await comm.receive_nothing(timeout=0.3)
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    assert json.loads(await comm.receive_from(timeout=10)) == {"type": "pong"}
    await comm.disconnect()


async def test_a_site_socket_flooder_is_told_in_its_language_and_cools_down(
        players: list[Any]) -> None:
    """Issue #25 item 3: the table socket's error frames (code, sentence, action_id) on the
    site socket too, and an account whose site socket was closed for flooding opens no new
    one for a while (RATE_LIMITED, 4429), before any row is written; others are served."""
    from games.models import SitePresence

    flooder, other = players[0], players[1]
    flooder.preferred_language = "de"
    await sync_to_async(flooder.save)()
    comm = await site_tab(flooder)
    frames, code = await _closed_after_flood(comm, json.dumps({"type": "ping"}))
    assert code == 4429
    limited = next(f for f in frames if f.get("code") == "RATE_LIMITED")
    with translation.override("de"):
        assert limited["message"] == message_for("RATE_LIMITED")
    assert limited["message"] != message_for("RATE_LIMITED")  # English, outside the override
    await comm.disconnect()
    rows = await sync_to_async(SitePresence.objects.filter(user=flooder).count)()
    again = await site_tab(flooder)
    refusal = await again.receive_output(timeout=10)
    assert json.loads(refusal["text"])["code"] == "RATE_LIMITED"
    assert (await again.receive_output(timeout=10))["code"] == 4429
    assert await sync_to_async(SitePresence.objects.filter(user=flooder).count)() == rows
    await again.disconnect()
    bystander = await site_tab(other)
    assert json.loads(await bystander.receive_from(timeout=10))["type"] == "notices"
    await bystander.disconnect()
