"""action_id and expected_version (issue #4 items 3–6; ARCHITECTURE.md §5, §7).

A double click is applied once; a stale expected_version is refused with STALE_VERSION and a
fresh view; one player may hold two tabs; a reconnect gets the full current view; a
disconnected player keeps the seat and is shown as away; a restarted server loses nothing
(a new application instance and a new channel layer read everything from the database).
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.layers import channel_layers
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from games import services
from games.engine import legal_actions
from games.live.protocol import Command
from games.models import Room, RoundAction
from tests.support import tables
from tests.support.live import TableClient

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]



def _rows(code: str, user: Any, action_id: str) -> int:
    room = Room.objects.get(code=code)
    return RoundAction.objects.filter(room=room,
                                      action_id=f"{room.pk}:{user.pk}:{action_id}").count()


def _without_presence(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "seats"}


async def test_double_click_is_applied_once(table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    await sync_to_async(tables.advance)(code, by_seat, "DEALING")
    dealer = await tables.open_tab(by_seat[0], code, "owner")
    v, n = await sync_to_async(tables.fingerprint)(code)
    # Two identical frames, sent before either is answered.
    await dealer.send("deal_next_pass", expected_version=v, action_id="click-1")
    await dealer.send("deal_next_pass", expected_version=v, action_id="click-1")
    first = await tables.answer(dealer, "click-1")
    second = await tables.answer(dealer, "click-1")
    assert first == {"type": "ack", "action_id": "click-1", "version": v + 1,
                     "duplicate": False}
    assert second["type"] == "ack" and second["duplicate"] is True
    assert second["version"] == v + 1
    assert await sync_to_async(tables.fingerprint)(code) == (v + 1, n + 1)
    assert await sync_to_async(_rows)(code, by_seat[0], "click-1") == 1
    st = await sync_to_async(tables.state)(code)
    assert st is not None and st.deal is not None and st.deal.passes == 1
    # The duplicate's sender is resynced to the current view.
    await dealer.wait_version(v + 1)
    assert dealer.view is not None and len(dealer.view["hand"]) == 6
    # A replay much later (a reconnecting client resending its queue) is still a duplicate.
    await sync_to_async(tables.must)(code, by_seat[0], "deal_next_pass")
    await dealer.send("deal_next_pass", expected_version=v, action_id="click-1")
    late = await tables.answer(dealer, "click-1")
    assert late["type"] == "ack" and late["duplicate"] is True and late["version"] == v + 2
    assert await sync_to_async(tables.fingerprint)(code) == (v + 2, n + 2)
    await dealer.close()


async def test_action_ids_are_per_player(table: tuple[str, dict[int, Any]]) -> None:
    # Two players whose clients happen to pick the same id do not swallow each other's move.
    code, by_seat = table
    v = await sync_to_async(tables.version)(code)
    a = await sync_to_async(services.submit)(code, by_seat[1], Command("leave_seat", "same",
                                                                       v, {}))
    b = await sync_to_async(services.submit)(code, by_seat[3], Command("leave_seat", "same",
                                                                       v + 1, {}))
    assert a.ok and b.ok and not a.duplicate and not b.duplicate
    assert await sync_to_async(tables.version)(code) == v + 2


async def test_stale_version_is_refused_with_a_fresh_state(
        table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    await sync_to_async(tables.advance)(code, by_seat, "PLAY")
    anna = await tables.open_tab(by_seat[1], code, "anna")
    v, n = await sync_to_async(tables.fingerprint)(code)
    card = anna.view["legal_cards"][0]
    action_id = await anna.send("play_card", expected_version=v - 1, card=card)
    reply = await tables.answer(anna, action_id)
    assert reply["type"] == "error" and reply["code"] == "STALE_VERSION"
    assert reply["message"].strip()
    fresh = await anna.wait_for(lambda m: m["type"] == "state", timeout=10)
    assert fresh["version"] == v
    assert fresh["view"]["seat"] == 1 and card in fresh["view"]["hand"]
    assert await sync_to_async(tables.fingerprint)(code) == (v, n)
    # A version from the future is just as stale.
    action_id = await anna.send("play_card", expected_version=v + 5, card=card)
    assert (await tables.answer(anna, action_id))["code"] == "STALE_VERSION"
    # With the fresh version the same move goes through.
    action_id = await anna.send("play_card", expected_version=v, card=card)
    assert (await tables.answer(anna, action_id))["type"] == "ack"
    await anna.close()


async def test_one_player_in_two_tabs(table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    await sync_to_async(tables.advance)(code, by_seat, "DEALING")
    tab1 = await tables.open_tab(by_seat[0], code, "owner-tab1")
    tab2 = await tables.open_tab(by_seat[0], code, "owner-tab2")
    v = await sync_to_async(tables.version)(code)
    # A move from the second tab …
    action_id = await tab2.send("deal_next_pass", expected_version=v)
    assert (await tables.answer(tab2, action_id))["type"] == "ack"
    s1 = await tab1.wait_version(v + 1)
    s2 = await tab2.wait_version(v + 1)
    # … reaches both tabs as the same view (the dealer's six cards).
    assert s1["view"] == s2["view"]
    assert s1["view"]["seat"] == 0 and len(s1["view"]["hand"]) == 6
    # … and a move from the first tab works too.
    action_id = await tab1.send("deal_next_pass", expected_version=v + 1)
    assert (await tables.answer(tab1, action_id))["type"] == "ack"
    s1 = await tab1.wait_version(v + 2)
    s2 = await tab2.wait_version(v + 2)
    assert s1["view"] == s2["view"] and len(s2["view"]["hand"]) == 12
    # Closing one tab leaves the player connected through the other.
    await tab1.close()
    assert by_seat[0].pk in await sync_to_async(services.connected_users)(code)
    await tab2.close()


async def test_reconnect_gets_the_full_current_view(table: tuple[str, dict[int, Any]]
                                                    ) -> None:
    code, by_seat = table
    await sync_to_async(tables.advance)(code, by_seat, "PLAY")
    curdin = await tables.open_tab(by_seat[3], code, "curdin")
    before = curdin.view
    v = curdin.version
    await curdin.close()
    # Reconnecting at once: the same version, the same view.
    again = await tables.open_tab(by_seat[3], code, "curdin")
    assert again.version == v
    assert _without_presence(again.view) == _without_presence(before)
    assert again.view["seat"] == 3 and len(again.view["hand"]) == 19
    await again.close()
    # The table moves on while he is away (anna leads trick 1) …
    st = await sync_to_async(tables.state)(code)
    assert st is not None and st.deal is not None and st.deal.turn == 1
    led = legal_actions(st, 1)["legal_cards"][0]
    await sync_to_async(tables.must)(code, by_seat[1], "play_card", card=led)
    # … and the reconnect shows exactly the table as it is now.
    third = await tables.open_tab(by_seat[3], code, "curdin")
    assert third.version == v + 1
    assert third.view["hand"] == before["hand"]
    assert third.view["trick"]["cards"] == [[1, led]]
    assert third.view["turn"] == 2
    await third.close()


async def test_disconnected_player_keeps_the_seat_shown_as_away(
        table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    await sync_to_async(tables.advance)(code, by_seat, "DEALING")
    owner = await tables.open_tab(by_seat[0], code, "owner")
    curdin = await tables.open_tab(by_seat[3], code, "curdin")
    await owner.wait_for(lambda m: m["type"] == "presence"
                         and by_seat[3].pk in m["connected"], timeout=10)
    await curdin.close()
    gone = await owner.wait_for(lambda m: m["type"] == "presence"
                                and by_seat[3].pk not in m["connected"], timeout=10)
    assert by_seat[0].pk in gone["connected"]
    # The next state shows the seat still held, its player away.
    action_id = await owner.send("deal_next_pass")
    assert (await tables.answer(owner, action_id))["type"] == "ack"
    state = await owner.wait_for(lambda m: m["type"] == "state", timeout=10)
    seat3 = next(s for s in state["view"]["seats"] if s["index"] == 3)
    assert seat3["player"]["id"] == by_seat[3].pk and seat3["connected"] is False
    seat0 = next(s for s in state["view"]["seats"] if s["index"] == 0)
    assert seat0["connected"] is True
    # He comes back to his seat, with his cards, and is shown as connected again.
    back = await tables.open_tab(by_seat[3], code, "curdin")
    assert back.view["seat"] == 3 and len(back.view["hand"]) == 6
    me = next(s for s in back.view["seats"] if s["index"] == 3)
    assert me["connected"] is True
    await owner.wait_for(lambda m: m["type"] == "presence"
                         and by_seat[3].pk in m["connected"], timeout=10)
    await asyncio_close(owner, back)


async def asyncio_close(*clients: TableClient) -> None:
    for c in clients:
        await c.close()


def _fresh_application() -> Any:
    """What a restarted ASGI process builds: a new router and consumers, and a new channel
    layer (the old process's in-memory layer and groups are gone)."""
    from games.live.routing import websocket_urlpatterns

    channel_layers.backends.clear()
    return ProtocolTypeRouter({"websocket": AllowedHostsOriginValidator(
        AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))})


async def test_restart_loses_nothing(table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    await sync_to_async(tables.advance)(code, by_seat, "PLAY")
    # Two tricks' worth of cards, so there is history as well as hands.
    for _ in range(6):
        st = await sync_to_async(tables.state)(code)
        assert st is not None and st.deal is not None
        turn = st.deal.turn
        assert turn is not None
        tab = await tables.open_tab(by_seat[turn], code)
        action_id = await tab.send("play_card", card=tab.view["legal_cards"][0])
        assert (await tables.answer(tab, action_id))["type"] == "ack"
        await tab.close()
    before = {}
    for seat, user in by_seat.items():
        tab = await tables.open_tab(user, code)
        before[seat] = (tab.version, _without_presence(tab.view))
        await tab.close()
    spectator_before = before[0][0]
    # "Restart": nothing of the old process survives but the database.
    app = await sync_to_async(_fresh_application)()
    after = {}
    tabs = {}
    for seat, user in by_seat.items():
        tab = TableClient(user, code)
        assert await tab.connect(application=app)
        await tab.wait_for(lambda m: m["type"] == "state", timeout=10)
        after[seat] = (tab.version, _without_presence(tab.view))
        tabs[seat] = tab
    assert after == before
    assert after[0][0] == spectator_before
    # Play continues from where it was, through the new process.
    st = await sync_to_async(tables.state)(code)
    assert st is not None and st.deal is not None and st.deal.turn is not None
    on_turn = tabs[st.deal.turn]
    action_id = await on_turn.send("play_card", card=on_turn.view["legal_cards"][0])
    assert (await tables.answer(on_turn, action_id))["type"] == "ack"
    for tab in tabs.values():
        await tab.wait_version(spectator_before + 1)
    await asyncio_close(*tabs.values())
