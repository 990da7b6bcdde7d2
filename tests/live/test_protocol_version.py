"""Protocol 2 (issue #16, docs/protocol.md §3 and §5): one frame per change and audience.

A change reaches every socket as one `state` frame carrying the change's events; that frame's
view is exactly the socket's own view (the shared part of the five views is encoded once and
spliced in: no key twice, nothing of another seat). A client that does not name protocol 2 is
told PROTOCOL_OUTDATED in its language and closed with 4426, never left waiting.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from games import services
from games.text.errors import message_for
from tests.support import tables
from tests.support.live import TableClient, cards_in

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), f"a key twice in one object: {keys}"
    return dict(pairs)


async def test_a_change_is_one_state_frame_with_its_events(
        table: tuple[str, dict[int, Any]], spectator: Any) -> None:
    code, by_seat = table
    await sync_to_async(tables.advance)(code, by_seat, "DEALING")
    tabs = {seat: await tables.open_tab(user, code, f"seat{seat}")
            for seat, user in by_seat.items()}
    watcher = await tables.open_tab(spectator, code, "spectator")
    everyone: dict[int | None, TableClient] = {**tabs, None: watcher}
    for c in everyone.values():
        # The welcome is a state without events (nothing happened: it is the table as it is).
        assert c.frames[-1]["type"] == "state" and "events" not in c.frames[-1]
        await c.drain()
    v = (await sync_to_async(tables.fingerprint)(code))[0]
    dealer = tabs[0]
    action_id = await dealer.send("deal_next_pass")
    assert (await tables.answer(dealer, action_id))["version"] == v + 1
    snap = await sync_to_async(services.table_snapshot)(code)
    for seat, c in everyone.items():
        await c.wait_version(v + 1)
        await c.drain()
        # Raw frames, to see the splice as the client parses it.
        frames = [f for f in c.frames[-3:] if f.get("version") == v + 1 and f["type"] != "ack"]
        assert [f["type"] for f in frames] == ["state"], c.name
        frame = frames[0]
        assert [e["type"] for e in frame["events"]] == ["pass_dealt"]
        assert frame["view"] == snap.view_for(seat), c.name
        assert set(snap.seat_view(seat)).isdisjoint(snap.shared_view())
        # Only the own hand: no card of another seat in the frame.
        own = set(frame["view"]["hand"])
        assert cards_in(frame) == own, c.name
    # The encoded frame has each key once (the two spliced parts never overlap).
    from games.live.broadcast import ChangeFrames

    for seat in (0, 1, 2, 3, None):
        json.loads(ChangeFrames(snap).frame(seat), object_pairs_hook=_unique_keys)
    # A sync answers the whole view again, without events.
    await dealer.comm.send_to(text_data='{"type": "sync"}')  # type: ignore[union-attr]
    again = await dealer.wait_for(lambda m: m["type"] == "state")
    assert again["version"] == v + 1 and "events" not in again
    for c in everyone.values():
        await c.close()


@pytest.mark.parametrize("query", ["", "?protocol=1", "?protocol=x", "?v=2"])
async def test_an_old_client_is_told_to_reload(table: tuple[str, dict[int, Any]],
                                               make_user: Any, query: str) -> None:
    code, _ = table
    sepp = await sync_to_async(make_user)("sepp", preferred_language="de")
    c = TableClient(sepp, code, "sepp")
    connected = await c.connect(query=query)
    assert connected
    error, close = await tables.refused(c)
    with translation.override("de"):
        german = message_for("PROTOCOL_OUTDATED")
    assert error == {"type": "error", "code": "PROTOCOL_OUTDATED", "message": german,
                     "action_id": None}
    assert close == 4426
    assert [f["type"] for f in c.frames] == ["error"], "no view for an old client"
