"""Moves written from the socket's event loop (games/services/writer.py `submit_move`, over
games/services/backends.py's LoopIO; issue #16): a card sent over a socket is read and written
over the loop's own connection, with no database thread, and a refusal is answered there too;
whatever the loop cannot do (a card that scores a deal, no free connection) is written by the
thread as before, with nothing written twice.

PostgreSQL only: the embedded mode's SQLite has one writer thread for every table."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from games.engine import legal_actions
from games.engine.cards import ids_of
from games.models import RoundAction
from games.services import backends, writer
from tests.support import tables

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="moves are written from the loop on PostgreSQL"),
    pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The command types the consumer sent to a database thread."""
    sent: list[str] = []
    through_thread = writer._submit_on_thread

    def spy(auth: Any, code: str, user: Any, cmd: Any, optimistic: bool) -> Any:
        sent.append(cmd.type)
        return through_thread(auth, code, user, cmd, optimistic)

    monkeypatch.setattr(writer, "_submit_on_thread", spy)
    return sent


async def _at_first_card(table: tuple[str, dict[int, Any]]) -> tuple[str, Any, int, Any]:
    code, by_seat = table
    st = await sync_to_async(tables.advance)(code, by_seat, "PLAY")
    assert st is not None and st.deal is not None and st.deal.turn is not None
    turn = st.deal.turn
    tab = await tables.open_tab(by_seat[turn], code, "on turn")
    return code, tab, turn, st


async def test_a_card_sent_over_a_socket_is_written_from_its_loop(
        table: tuple[str, dict[int, Any]], threads: list[str]) -> None:
    code, tab, turn, st = await _at_first_card(table)
    v, n = await sync_to_async(tables.fingerprint)(code)
    card = legal_actions(st, turn)["legal_cards"][0]
    await tab.send("play_card", expected_version=v, action_id="card-1", card=card)
    ack = await tables.answer(tab, "card-1")
    assert ack == {"type": "ack", "action_id": "card-1", "version": v + 1, "duplicate": False}
    state = await tab.wait_version(v + 1)
    assert state["events"][0]["type"] == "card_played"
    assert threads == []  # no database thread on the way
    assert await sync_to_async(tables.fingerprint)(code) == (v + 1, n + 1)
    await tab.close()


async def test_a_refused_card_is_answered_on_the_loop_with_its_code(
        table: tuple[str, dict[int, Any]], threads: list[str]) -> None:
    code, tab, turn, st = await _at_first_card(table)
    v, n = await sync_to_async(tables.fingerprint)(code)
    # A card of another seat's hand: refused by the engine, answered from the table as read
    # on the loop (the log's answer for its action_id came with that read).
    other = ids_of(st.deal.hands[(turn + 1) % 4])[0]
    await tab.send("play_card", expected_version=v, action_id="wrong", card=other)
    error = await tables.answer(tab, "wrong")
    assert error["type"] == "error" and error["code"] == "CARD_NOT_IN_HAND"
    assert threads == []
    assert await sync_to_async(tables.fingerprint)(code) == (v, n)
    await tab.close()


async def test_with_the_loops_connections_busy_the_thread_writes(
        table: tuple[str, dict[int, Any]], threads: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    code, tab, turn, st = await _at_first_card(table)
    monkeypatch.setattr(backends, "MAX_CONNECTIONS", 0)
    v, _ = await sync_to_async(tables.fingerprint)(code)
    card = legal_actions(st, turn)["legal_cards"][0]
    await tab.send("play_card", expected_version=v, action_id="card-1", card=card)
    ack = await tables.answer(tab, "card-1")
    assert ack["type"] == "ack" and ack["version"] == v + 1
    assert threads == ["play_card"]
    assert await sync_to_async(RoundAction.objects.filter(
        room__code=code, kind="play_card").count)() == 1
    await tab.close()
